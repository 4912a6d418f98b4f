import { describe, expect, test } from 'vitest'
import { chainFeePolicy, DEFAULT_FEE_POLICY, withLiveParams } from '@/lib/core/chain-rules/chain-policy'
import { answerAgeBlocks } from '@/lib/core/contract/freshness'
import {
  LEVEL_SETTINGS,
  REWARD_PERCENTILES,
  baseFeeStats,
  congestion,
  baseFeeTrend,
  demandProxyAt,
  estimateLevels,
  maxBaseFeeRisePpm,
  priorityFeeRanges,
  priorityFeeTrend,
  tipBlocks,
} from '@/lib/core/fee-math/estimator'
import { csvCell } from '@/scripts/record/recording'
import { toFeeData } from '@/lib/core/fee-math/fee-data'
import { createRandom } from '@/scripts/devnet/traffic-model'
import { at } from '../../../support/at'
import { readCsv } from '../../../support/shared-data'
import { flatRewards, mainnet100BlockWindow, makeWindow } from '../../../support/windows'

const GWEI = 1_000_000_000n
const column = (p: number) => REWARD_PERCENTILES.indexOf(p as (typeof REWARD_PERCENTILES)[number])

function expectOrdering(levels: ReturnType<typeof estimateLevels>, nextBaseFee: bigint) {
  const { low, medium, high } = levels
  expect(low.maxPriorityFeePerGas <= medium.maxPriorityFeePerGas).toBe(true)
  expect(medium.maxPriorityFeePerGas <= high.maxPriorityFeePerGas).toBe(true)
  expect(low.maxFeePerGas <= medium.maxFeePerGas).toBe(true)
  expect(medium.maxFeePerGas <= high.maxFeePerGas).toBe(true)
  for (const l of [medium, high]) expect(l.maxFeePerGas >= nextBaseFee + l.maxPriorityFeePerGas).toBe(true)
  for (const l of [low, medium, high]) expect(l.minWaitTimeMs).toBeLessThanOrEqual(l.maxWaitTimeMs)
  expect(high.maxWaitTimeMs).toBeLessThanOrEqual(medium.maxWaitTimeMs)
  expect(medium.maxWaitTimeMs).toBeLessThanOrEqual(low.maxWaitTimeMs)
  expect(high.minWaitTimeMs).toBeLessThanOrEqual(medium.minWaitTimeMs)
  expect(medium.minWaitTimeMs).toBeLessThanOrEqual(low.minWaitTimeMs)
}

/**
 * Independent brute force: over the last `blocks` demands, the minima of every W-block run, and
 * their target quantile by nearest rank, never above the TAIL-th largest (2 run minima stay above).
 */
function runMinimaQuantile(demand: bigint[], w: number, target: number, blocks = demand.length): bigint {
  const recent = demand.slice(-blocks)
  const minima: bigint[] = []
  for (let i = 0; i + w <= recent.length; i++) minima.push(recent.slice(i, i + w).reduce((a, b) => (a < b ? a : b)))
  const sorted = (minima.length ? minima : recent).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const rank = Math.max(1, Math.min(Math.ceil(target * sorted.length - 1e-9), sorted.length - 2))
  return at(sorted, rank - 1)
}

/** next × (1 + ppm/10⁶)^k, each step rounded up, as a cap must never round below its bound. */
function grown(next: bigint, ppm: bigint, k: number): bigint {
  let v = next
  for (let i = 0; i < k; i++) v = (v * (1_000_000n + ppm) + 999_999n) / 1_000_000n
  return v
}

/** A reward row whose 10th percentile (the tip column the estimator reads) is `p10` gwei. */
const row = (p10: bigint, others = 0n) => REWARD_PERCENTILES.map((p) => (p === 10 ? p10 : others))
const tips = (l: ReturnType<typeof estimateLevels>) => [
  l.low.maxPriorityFeePerGas,
  l.medium.maxPriorityFeePerGas,
  l.high.maxPriorityFeePerGas,
]
const ethereum = chainFeePolicy(1)

describe('estimateLevels', () => {
  test('default: each level pays the target quantile of the cheapest demand within its wait', () => {
    // full blocks whose 10th-percentile tips alternate 1, 5, 5 gwei: every 3-block run holds a 1, some 2-block runs do not
    const pattern = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? 1n : 5n) * GWEI)
    const data = toFeeData(
      makeWindow({
        baseFees: Array(30).fill(10n * GWEI),
        next: 10n * GWEI,
        rewards: pattern.map((t) => row(t)),
        ratios: Array(30).fill(1),
      }),
    )
    const levels = estimateLevels(data, ethereum)
    expect(levels.low.maxPriorityFeePerGas).toBe(1n * GWEI)
    expect(levels.medium.maxPriorityFeePerGas).toBe(1n * GWEI)
    expect(levels.high.maxPriorityFeePerGas).toBe(5n * GWEI)
    // max fee: the next base fee after Ethereum's 12.5% maximum rise for every block low's promise can
    // reach: 3 blocks of answer age + its 6 blocks − the next block, whose base fee is known
    const cap = grown(10n * GWEI, 125_000n, 3 + 6 - 1)
    expect(Number(cap)).toBeCloseTo(10e9 * 1.125 ** 8, -2)
    expect(levels.low.maxFeePerGas).toBe(cap + 1n * GWEI)
    expect(levels.high.maxFeePerGas).toBe(cap + 5n * GWEI)
    expectOrdering(levels, data.nextBaseFee)
  })

  test('behavior: a full block demanded its 10th-percentile tip; a block with room took its cheapest real tip', () => {
    // percentiles 0, 1, 5, 10, 50, 100: a builder's 0-wei payment, a 2-wei system tip, then 1, 3, 8, 20 gwei
    const rewardsRow = [0n, 2n, 1n * GWEI, 3n * GWEI, 8n * GWEI, 20n * GWEI]
    expect(REWARD_PERCENTILES).toEqual([0, 1, 5, 10, 50, 100])
    const data = toFeeData(
      makeWindow({ baseFees: [GWEI, GWEI, GWEI], next: GWEI, rewards: [rewardsRow, rewardsRow, rewardsRow], ratios: [0.97, 0.6, 0] }),
    )
    expect([0, 1, 2].map((i) => demandProxyAt(data, i))).toEqual([3n * GWEI, 1n * GWEI, 0n])
  })

  test('behavior: wait times come from the measured block interval', () => {
    const base = { baseFees: [GWEI, GWEI], next: GWEI, rewards: [flatRewards(1n), flatRewards(1n)] }
    const fast = estimateLevels(toFeeData(makeWindow({ ...base, intervalMs: 2_000 })))
    const slow = estimateLevels(toFeeData(makeWindow({ ...base, intervalMs: 12_000 })))
    for (const level of ['low', 'medium', 'high'] as const) {
      expect(fast[level].maxWaitTimeMs).toBe(2_000 * LEVEL_SETTINGS[level].maxWaitBlocks)
      expect(slow[level].maxWaitTimeMs).toBe(12_000 * LEVEL_SETTINGS[level].maxWaitBlocks)
      expect(fast[level].minWaitTimeMs).toBe(2_000 * LEVEL_SETTINGS[level].minWaitBlocks)
    }
  })

  test('behavior: no fixed gwei floor on a chain without one — 7-wei base fees and 1,000-wei tips get tiny fees', () => {
    const data = toFeeData(
      makeWindow({ baseFees: Array(50).fill(7n), next: 7n, rewards: Array(50).fill(flatRewards(1_000n)), intervalMs: 2_000 }),
    )
    const levels = estimateLevels(data, chainFeePolicy(59144))
    expect(levels.high.maxFeePerGas).toBeLessThan(2_000n)
    expect(levels.medium.maxPriorityFeePerGas).toBe(1_000n)
  })

  test('behavior: the tips come from a window measured in time: blocks older than it do not count', () => {
    // mainnet: 10 minutes are 50 blocks of 12 s for low and medium (high needs 201 for its 99%)
    const old = Array(100).fill(flatRewards(100n * GWEI))
    const recent = Array(60).fill(flatRewards(2n * GWEI))
    const data = toFeeData(makeWindow({ baseFees: Array(160).fill(GWEI), next: GWEI, rewards: [...old, ...recent] }))
    expect(tipBlocks('medium', 12_000, ethereum.tipWindowMs, 160)).toBe(50)
    expect(estimateLevels(data, ethereum).medium.maxPriorityFeePerGas).toBe(2n * GWEI)
    // on a 2 s chain the same 10 minutes are 300 blocks: the old demand is inside it
    const fast = toFeeData(makeWindow({ baseFees: Array(160).fill(GWEI), next: GWEI, rewards: [...old, ...recent], intervalMs: 2_000 }))
    expect(estimateLevels(fast, ethereum).medium.maxPriorityFeePerGas).toBe(100n * GWEI)
  })

  test('behavior: each level looks at enough blocks for the quantile it claims', () => {
    // (1 − p) · runs ≥ 2: low 90% of ≥ 20 runs of 6, medium 95% of ≥ 40 runs of 3, high 99% of ≥ 200 runs of 2
    expect(tipBlocks('low', 12_000, 60_000, 500)).toBe(25)
    expect(tipBlocks('medium', 12_000, 60_000, 500)).toBe(42)
    expect(tipBlocks('high', 12_000, 60_000, 500)).toBe(201)
    expect(tipBlocks('high', 12_000, 60_000, 80)).toBe(80)
  })

  test('behavior: a burst does not set the price (two blocks at 300 gwei 15 blocks ago in a calm 1 gwei market)', () => {
    const rewards = Array.from({ length: 500 }, (_, i) => flatRewards((i === 484 || i === 485 ? 300n : 1n) * GWEI))
    const data = toFeeData(makeWindow({ baseFees: Array(500).fill(GWEI), next: GWEI, rewards }))
    for (const t of tips(estimateLevels(data, ethereum))) expect(t).toBe(1n * GWEI)
  })

  test.each([
    [1, 12_000, 1n * GWEI],
    [10, 2_000, GWEI / 100n],
    [8453, 2_000, GWEI / 100n],
    [137, 2_000, 40n * GWEI],
    [56, 750, GWEI / 5n],
  ])('behavior: chain %i: a burst that ended more than a minute ago moves no level by more than 2×', (chainId, intervalMs, calm) => {
    const policy = chainFeePolicy(chainId)
    const after = Math.ceil(60_000 / intervalMs) + 1
    for (const length of [1, 2, 3]) {
      const rewards = Array.from({ length: 500 }, (_, i) => flatRewards(i >= 500 - after - length && i < 500 - after ? 300n * calm : calm))
      const calmData = toFeeData(
        makeWindow({ baseFees: Array(500).fill(GWEI), next: GWEI, rewards: Array(500).fill(flatRewards(calm)), intervalMs }),
      )
      const burstData = toFeeData(makeWindow({ baseFees: Array(500).fill(GWEI), next: GWEI, rewards, intervalMs }))
      const before = tips(estimateLevels(calmData, policy))
      const now = tips(estimateLevels(burstData, policy))
      now.forEach((t, i) => expect(t).toBeLessThanOrEqual(2n * at(before, i)))
    }
  })

  test.each([
    [137, 30n * GWEI],
    [56, GWEI / 10n],
  ])('behavior: chain %i: after a run of empty or zero-tip blocks no tip is below the chain minimum', (chainId, floor) => {
    const policy = chainFeePolicy(chainId)
    expect(policy.minSuggestedPriorityFeeWei).toBe(floor)
    expect(policy.minSuggestedPriorityFeeWei >= policy.minPriorityFeeWei).toBe(true)
    const quiet = toFeeData(
      makeWindow({
        baseFees: Array(500).fill(30n * GWEI),
        next: 30n * GWEI,
        rewards: Array.from({ length: 500 }, (_, i) => flatRewards(i < 400 ? 50n * GWEI : 0n)),
        ratios: Array.from({ length: 500 }, (_, i) => (i < 400 ? 0.6 : i % 2 === 0 ? 0 : 0.1)),
        intervalMs: 2_000,
      }),
    )
    for (const t of tips(estimateLevels(quiet, policy))) expect(t >= floor).toBe(true)
  })

  test("behavior: OP-stack chains suggest at least op-geth's 0.001 gwei; Arbitrum, which ignores tips, suggests 0", () => {
    const window = toFeeData(
      makeWindow({
        baseFees: Array(100).fill(GWEI / 100n),
        next: GWEI / 100n,
        rewards: Array(100).fill(flatRewards(0n)),
        intervalMs: 2_000,
      }),
    )
    for (const t of tips(estimateLevels(window, chainFeePolicy(10)))) expect(t).toBe(1_000_000n)
    const tipped = toFeeData(
      makeWindow({
        baseFees: Array(100).fill(GWEI / 100n),
        next: GWEI / 100n,
        rewards: Array(100).fill(flatRewards(GWEI)),
        intervalMs: 250,
      }),
    )
    for (const t of tips(estimateLevels(tipped, chainFeePolicy(42161)))) expect(t).toBe(0n)
  })

  test('behavior: tips of at most 2 wei (system and builder transactions) count as no tip, not as a price', () => {
    const data = toFeeData(makeWindow({ baseFees: Array(100).fill(GWEI), next: GWEI, rewards: Array(100).fill(flatRewards(2n)) }))
    expect(tips(estimateLevels(data, ethereum))).toEqual([0n, 0n, 0n])
    const three = toFeeData(makeWindow({ baseFees: Array(100).fill(GWEI), next: GWEI, rewards: Array(100).fill(flatRewards(3n)) }))
    expect(tips(estimateLevels(three, ethereum))).toEqual([3n, 3n, 3n])
  })

  test('behavior: blocks whose reward rows came back empty ([] or null) count as blocks without tips', () => {
    const window = makeWindow({ baseFees: Array(60).fill(GWEI), next: GWEI, rewards: Array(60).fill(flatRewards(GWEI)) })
    // every third block without tip data: every 3-block run holds one, a third of the 2-block runs do not
    window.reward = window.reward.map((r, i) => (i % 3 === 0 ? [] : r))
    const data = toFeeData(window)
    expect(tips(estimateLevels(data, ethereum))).toEqual([0n, 0n, GWEI])
    expect(priorityFeeRanges(data).latest).toEqual([GWEI, GWEI])
  })

  // A chain at its floor (every base fee the same, blocks under target): each level's headroom over
  // the next base fee is exactly one full block's rise at the chain's own rule, not 0 and not the
  // protocol's bound over the wait (1.125^8 ≈ 2.57× on Ethereum).
  test.each([
    // Ethereum and Sepolia: a full block raises the base fee by 1/8 (go-ethereum CalcBaseFee)
    { chain: 'Ethereum', policy: chainFeePolicy(1), next: 25n * GWEI, raised: (n: bigint) => n + n / 8n },
    { chain: 'Sepolia', policy: chainFeePolicy(11155111), next: 25n * GWEI, raised: (n: bigint) => n + n / 8n },
    // an EIP-1559 chain at 7 wei (Linea's resting base fee): the rise rounds up to 1 wei
    { chain: 'Ethereum at 7 wei', policy: chainFeePolicy(1), next: 7n, raised: (n: bigint) => n + 1n },
    // Base at its 0.005 gwei floor, Holocene extraData: denominator 100, elasticity 5: +4%
    {
      chain: 'Base (Holocene extraData)',
      policy: withLiveParams(chainFeePolicy(8453), '0x' + '00' + '00000064' + '00000005'),
      next: 5_000_000n,
      raised: (n: bigint) => n + (n * 4n) / 100n,
    },
    // Jovian extraData: denominator 250, elasticity 6 (+2%), minimum base fee 0.005 gwei
    {
      chain: 'OP Mainnet (Jovian extraData)',
      policy: withLiveParams(chainFeePolicy(10), '0x' + '01' + '000000fa' + '00000006' + '00000000004c4b40'),
      next: 5_000_000n,
      raised: (n: bigint) => n + (n * 5n) / 250n,
    },
    // a rule past 100% a block (denominator 2, elasticity 6: +250%) is planned whole, not clamped at 2×
    {
      chain: 'an OP-stack chain of +250% a block',
      policy: withLiveParams(chainFeePolicy(10), '0x' + '00' + '00000002' + '00000006'),
      next: 5_000_000n,
      raised: (n: bigint) => n + (n * 5n) / 2n,
    },
    // Polygon PoS: ±5% a block bounds every producer configuration since Lisovo (bor MaxBaseFeeChangePercent)
    { chain: 'Polygon PoS', policy: chainFeePolicy(137), next: 30n * GWEI, raised: (n: bigint) => n + n / 20n },
    // Arbitrum: no per-block bound; the policy minimum, +17% a block (a block at the 64M effective
    // limit under One's gas targets, docs/estimator.md)
    { chain: 'Arbitrum One', policy: chainFeePolicy(42161), next: 20_000_000n, raised: (n: bigint) => n + (n * 17n) / 100n },
  ])('behavior: $chain at its floor: every level leaves one full block of headroom', ({ policy, next, raised }) => {
    const baseFees = Array(500).fill(next)
    const data = toFeeData(makeWindow({ baseFees, next, ratios: baseFees.map(() => 0.1), intervalMs: 2_000 }))
    const levels = estimateLevels(data, policy)
    for (const l of [levels.low, levels.medium, levels.high]) expect(l.maxFeePerGas - l.maxPriorityFeePerGas).toBe(raised(next))
  })

  test("behavior: never above the chain's own bound: OP-stack's 2% a block caps a window that rose at the bound; Ethereum's 12.5% does not bind it", () => {
    // 100 blocks each 2% above the one before (OP-stack's full blocks after Canyon), on 2-s blocks
    const baseFees = Array.from({ length: 100 }, (_, i) => grown(GWEI, 20_000n, i))
    const next = grown(GWEI, 20_000n, 100)
    const data = toFeeData(makeWindow({ baseFees, next, ratios: Array(100).fill(1), intervalMs: 2_000 }))
    // 2 s blocks: the answer may be 3 blocks old; low promises 6: 8 rises after the next block
    const bound = grown(next, 20_000n, 3 + 6 - 1)
    // the head's extraData carries the chain's live parameters (Holocene): denominator 250, elasticity 6
    const op = estimateLevels(data, withLiveParams(chainFeePolicy(10), '0x00000000fa00000006'))
    expect(op.low.maxFeePerGas - op.low.maxPriorityFeePerGas).toBe(bound)
    // on Ethereum's rules the same window forecasts the same 2% rises: about the same cap, far under 1.125^8
    const eth = estimateLevels(data, ethereum)
    const cap = eth.low.maxFeePerGas - eth.low.maxPriorityFeePerGas
    expect(cap >= (bound * 99n) / 100n).toBe(true)
    expect(cap < grown(next, 125_000n, 4)).toBe(true)
  })

  test("behavior: a window too short to forecast (under 64 steps): the protocol bound over the level's horizon, the answer's age included; sub-second blocks age more blocks", () => {
    expect(answerAgeBlocks(12_000)).toBe(3)
    expect(answerAgeBlocks(2_000)).toBe(3)
    // the cache period is never under 1 s: 0.75 s blocks can be 4 blocks old, 0.25 s blocks 12
    expect(answerAgeBlocks(750)).toBe(4)
    expect(answerAgeBlocks(250)).toBe(12)
    const data = toFeeData(makeWindow({ baseFees: Array(10).fill(GWEI), next: GWEI, intervalMs: 750 }))
    const levels = estimateLevels(data, ethereum)
    // low's horizon (4 + 6 blocks) is the longest: its bound, and no faster level below it
    for (const l of [levels.low, levels.medium, levels.high])
      expect(l.maxFeePerGas - l.maxPriorityFeePerGas).toBe(grown(GWEI, 125_000n, 4 + 6 - 1))
  })

  test('behavior: on a chain whose bounds are only assumed, a bigger observed rise gets more headroom', () => {
    const data = toFeeData(makeWindow({ baseFees: [GWEI, 2n * GWEI], next: 2n * GWEI, rewards: [flatRewards(0n), flatRewards(0n)] }))
    expect(maxBaseFeeRisePpm(DEFAULT_FEE_POLICY, data.baseFees, data.nextBaseFee)).toBe(1_000_000n)
    expect(maxBaseFeeRisePpm(ethereum, data.baseFees, data.nextBaseFee)).toBe(125_000n)
  })

  test('behavior: an idle chain (no transactions in the window) suggests its floor tip, not an invented one', () => {
    const data = toFeeData(makeWindow({ baseFees: Array(10).fill(GWEI), next: GWEI, ratios: Array(10).fill(0) }))
    const levels = estimateLevels(data, ethereum)
    expect(levels.high.maxPriorityFeePerGas).toBe(0n)
    expect(levels.low.maxFeePerGas).toBe(grown(GWEI, 125_000n, 8))
  })

  test('behavior: ordering holds, and congestion agrees with busyThreshold, on 300 random windows of every family', () => {
    const rand = createRandom(7)
    const chains = [1, 10, 137, 56, 42161, 59144, 43114, 777]
    for (let k = 0; k < 300; k++) {
      const n = 1 + Math.floor(rand() * 60)
      const flat = rand() < 0.3
      const level = BigInt(Math.floor(rand() * 1e11))
      const baseFees = Array.from({ length: n }, () => (flat ? level : BigInt(Math.floor(rand() * 1e11))))
      const rewards = Array.from({ length: n }, () =>
        REWARD_PERCENTILES.map(() => BigInt(Math.floor(rand() * 5e9))).sort((a, b) => (a < b ? -1 : 1)),
      )
      const ratios = Array.from({ length: n }, () => (rand() < 0.2 ? 0 : rand()))
      const next = flat && rand() < 0.7 ? level : BigInt(Math.floor(rand() * 1e11))
      const data = toFeeData(makeWindow({ baseFees, next, rewards, ratios, intervalMs: 250 + Math.floor(rand() * 15_000) }))
      expectOrdering(estimateLevels(data, chainFeePolicy(at(chains, k % chains.length))), next)
      const stats = baseFeeStats(data)
      expect(stats.congestion).toBeGreaterThanOrEqual(0)
      expect(stats.congestion).toBeLessThanOrEqual(1)
      // above 0.9 exactly when the next base fee is above the busy threshold
      expect(stats.congestion > 0.9).toBe(next > stats.p90)
    }
  })
})

describe('networkCongestion', () => {
  test("behavior: a flat window (Linea's 7 wei, BSC's 0) is mid-range, not full, while next = busyThreshold", () => {
    for (const fee of [7n, 0n, GWEI / 100n]) {
      const stats = baseFeeStats(toFeeData(makeWindow({ baseFees: Array(500).fill(fee), next: fee })))
      expect(stats.p90).toBe(fee)
      expect(stats.congestion).toBe(0.5)
    }
  })

  test('behavior: ties never put it on the wrong side of 0.9', () => {
    // next equals the busy threshold, with many ties at it: at most 0.9
    const ties = [...Array(449).fill(1n), ...Array(51).fill(2n)]
    expect(congestion(ties, 2n, 2n)).toBe(0.9)
    // next just above the threshold with no ties: half a rank above 0.9
    const spread = Array.from({ length: 500 }, (_, i) => BigInt(i))
    expect(congestion(spread, 449n, 449n)).toBe(0.899)
    expect(congestion(spread, 450n, 449n)).toBe(0.901)
  })
})

describe('real window: mainnet blocks 15,627,832–15,627,931 with every transaction', () => {
  const window = mainnet100BlockWindow()
  const data = toFeeData(window)
  const levels = estimateLevels(data, ethereum)

  test('behavior: ordering rules hold', () => {
    expect(data.baseFees).toHaveLength(100)
    expectOrdering(levels, data.nextBaseFee)
  })

  test("behavior: tips are the target quantiles of the W-block minima of each level's window of demands", () => {
    // a full block's 10th-percentile tip; a block with room, its lowest of the 0th, 1st, 5th above 2 wei
    const real = (r: bigint[], p: number) => (at(r, column(p)) > 2n ? at(r, column(p)) : undefined)
    const demand = data.rewards.map((r, i) => {
      const ratio = at(data.gasUsedRatio, i)
      if (ratio === 0) return 0n
      return (ratio >= 0.95 ? real(r, 10) : (real(r, 0) ?? real(r, 1) ?? real(r, 5))) ?? 0n
    })
    // 10 minutes of 12 s blocks are 50; high's 99% needs 201 blocks, and the window has 100
    const low = runMinimaQuantile(demand, 6, 0.9, 50)
    const medium = [low, runMinimaQuantile(demand, 3, 0.95, 50)].reduce((a, b) => (a > b ? a : b))
    const high = [medium, runMinimaQuantile(demand, 2, 0.99, 100)].reduce((a, b) => (a > b ? a : b))
    expect(levels.low.maxPriorityFeePerGas).toBe(low)
    expect(levels.medium.maxPriorityFeePerGas).toBe(medium)
    expect(levels.high.maxPriorityFeePerGas).toBe(high)
    // a plausible post-Merge tip: between 0.001 and 10 gwei
    expect(levels.medium.maxPriorityFeePerGas > GWEI / 1000n && levels.medium.maxPriorityFeePerGas < 10n * GWEI).toBe(true)
  })

  test("behavior: the cap lies between the next base fee and Ethereum's bound (12.5% a block over low's promise and the answer's age); the window's real rises stay within 12.5%", () => {
    const series = [...data.baseFees, data.nextBaseFee].map(Number)
    let rise = 0
    for (let i = 1; i < series.length; i++) rise = Math.max(rise, at(series, i) / at(series, i - 1) - 1)
    expect(rise).toBeGreaterThan(0.12) // the window holds full blocks: close to EIP-1559's 1/8 ...
    expect(rise).toBeLessThanOrEqual(0.125 + 1e-9) // ... and never above it
    const cap = levels.medium.maxFeePerGas - levels.medium.maxPriorityFeePerGas
    expect(cap > data.nextBaseFee).toBe(true)
    expect(cap < grown(data.nextBaseFee, 125_000n, 8)).toBe(true)
    expect(levels.medium.maxWaitTimeMs).toBe(36_000)
  })

  test('behavior: ranges bracket the data', () => {
    const ranges = priorityFeeRanges(data)
    const nonEmpty = data.rewards.filter((_, i) => at(data.gasUsedRatio, i) > 0)
    expect(ranges.historical[0]).toBe(nonEmpty.map((r) => at(r, column(0))).reduce((a, b) => (a < b ? a : b)))
    expect(ranges.historical[1]).toBe(nonEmpty.map((r) => at(r, column(100))).reduce((a, b) => (a > b ? a : b)))
    expect(ranges.latest).toEqual([nonEmpty.at(-1)![column(0)], nonEmpty.at(-1)![column(100)]])
  })
})

describe('real window: 1,640 mainnet blocks 15,533,942–15,535,581 (base fees only)', () => {
  const rows = readCsv('eth-mainnet-blocks-15533942-15535581', 'blocks.csv.gz')
    .map((r) => ({ n: Number(r.number), base: BigInt(csvCell(r, 'base_fee_per_gas')), ratio: Number(r.gas_used) / Number(r.gas_limit) }))
    .sort((a, b) => a.n - b.n)

  test("behavior: Ethereum's planned 12.5% is the rise real full blocks show, and no block rose more", () => {
    expect(rows).toHaveLength(1640)
    let windows = 0
    for (let start = 0; start + 501 <= rows.length; start += 250) {
      const slice = rows.slice(start, start + 501)
      const ratios = slice.slice(0, 500).map((r) => r.ratio)
      const observed = maxBaseFeeRisePpm(
        { maxBaseFeeRisePpm: 0n, enforceBaseFeeBounds: false },
        slice.slice(0, 500).map((r) => r.base),
        at(slice, 500).base,
      )
      expect(ratios.some((r) => r >= 0.95)).toBe(true)
      // a 100%-full block raises the base fee by exactly 1/8; rounding up to the next ppm allows 1 ppm more
      expect(observed >= 124_990n && observed <= 125_001n).toBe(true)
      expect(
        maxBaseFeeRisePpm(
          ethereum,
          slice.slice(0, 500).map((r) => r.base),
          at(slice, 500).base,
        ),
      ).toBe(125_000n)
      windows++
    }
    expect(windows).toBeGreaterThan(4)
  })

  test('behavior: trends and congestion agree with the base fee path', () => {
    const fees = rows.map((r) => r.base)
    let checked = 0
    for (let end = 510; end < fees.length; end += 37) {
      const window = fees.slice(end - 500, end)
      const next = at(fees, end)
      const data = toFeeData(makeWindow({ baseFees: window, next }))
      const recent = [...window.slice(-10)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      expect(baseFeeTrend(data)).toBe(next > at(recent, 4) ? 'up' : 'down')
      const p90 = at(
        [...window].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
        449,
      )
      const midRank = (window.filter((f) => f < next).length + window.filter((f) => f === next).length / 2) / 500
      expect(baseFeeStats(data).congestion).toBe(next > p90 ? Math.max(midRank, 0.901) : Math.min(midRank, 0.9))
      checked++
    }
    expect(checked).toBeGreaterThan(20)
  })
})

describe('trends', () => {
  const mk = (baseFees: bigint[], next: bigint, p50s: bigint[] = baseFees.map(() => 1n)) =>
    toFeeData(makeWindow({ baseFees, next, rewards: p50s.map((t) => REWARD_PERCENTILES.map(() => t)) }))

  test('behavior: base fee above the recent median is "up", equal or below is "down"', () => {
    expect(baseFeeTrend(mk(Array(10).fill(100n), 101n))).toBe('up')
    expect(baseFeeTrend(mk(Array(10).fill(100n), 100n))).toBe('down')
    expect(baseFeeTrend(mk(Array(10).fill(100n), 99n))).toBe('down')
  })

  test('behavior: priority fee trend compares the recent half with the half before', () => {
    const rising = [...Array(10).fill(1n), ...Array(10).fill(5n)]
    expect(priorityFeeTrend(mk(Array(20).fill(1n), 1n, rising))).toBe('up')
    expect(priorityFeeTrend(mk(Array(20).fill(1n), 1n, [...rising].reverse()))).toBe('down')
    expect(priorityFeeTrend(mk(Array(20).fill(1n), 1n, Array(20).fill(3n)))).toBe('down')
  })
})
