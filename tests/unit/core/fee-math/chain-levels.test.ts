// The fast chains' rules on literal windows (issue 44 part 2): each chain's row (lib/core/chain-rules/fast-chains.ts)
// applied after the estimator, the same in the levels, the legacy prices, the confidence ladder and transactionCost.
import { describe, expect, test } from 'vitest'
import { chainFeePolicy } from '@/lib/core/chain-rules/chain-policy'
import { chainReadsOf } from '@/lib/core/chain-rules/fast-chains'
import { buildFeeReport } from '@/lib/core/contract/report'
import {
  applyLevelRules,
  bigLaneLevels,
  levelRulesOf,
  lowestAcceptedTip,
  windowConfidencePrices,
  windowGasPrices,
  windowLevels,
} from '@/lib/core/fee-math/chain-levels'
import { estimateLevels } from '@/lib/core/fee-math/estimator'
import { forecastBaseFee } from '@/lib/core/fee-math/forecast'
import { toFeeData } from '@/lib/core/fee-math/fee-data'
import { levelSuggestions } from '@/lib/core/fee-math/replacement'
import { transactionCost } from '@/lib/core/fee-math/transaction-cost'
import { fastChainPolicy, windowPolicy } from '@/lib/core/fee-math/window-policy'
import type { FeeWindow } from '@/lib/core/types'
import { makeWindow } from '../../../support/windows'

const GWEI = 1_000_000_000n
const LEVELS = ['low', 'medium', 'high'] as const

/** 500 blocks of `intervalMs` at a flat base fee, each block's tips `tip`…`tip`+4 gwei/10 at the six percentiles. */
function windowOf(chainId: number, baseFee: bigint, tip: bigint, intervalMs: number, extra: Partial<FeeWindow> = {}): FeeWindow {
  const rewards = Array.from({ length: 500 }, (_, i) => {
    const t = tip + BigInt(i % 3) * (tip / 10n)
    return [t, t, t, t, t * 2n, t * 3n]
  })
  return { ...makeWindow({ baseFees: Array(500).fill(baseFee), next: baseFee, rewards, intervalMs }), chainId, ...extra }
}

describe('chainReadsOf', () => {
  test.each([
    [1329, ['eth_gasPrice']],
    [999, ['eth_bigBlockGasPrice']],
    [1, []],
    [56, []],
    [42161, []],
    [8453, []],
  ])('default: chain %i reads %j beside its window', (chainId, reads) => {
    expect(chainReadsOf(chainFeePolicy(chainId))).toEqual(reads)
  })
})

describe('BNB Smart Chain (56): base fee 0, max fee = tip, no tip below the lowest the blocks accepted', () => {
  test('default: every level max fee = tip, no headroom', () => {
    const levels = windowLevels(windowOf(56, 0n, GWEI / 10n, 450), chainFeePolicy(56))
    for (const u of LEVELS) expect(levels[u].maxFeePerGas).toBe(levels[u].maxPriorityFeePerGas)
  })

  test("behavior: validators that raised their floor to 0.3 gwei, blocks led by a 0-wei system transaction: every tip 0.3 gwei, not the policy's 0.1", () => {
    // percentiles 0, 1, 5, 10 land on the system transaction; 50 and 100 on the users' 0.3 and 0.9 gwei
    const rewards = Array.from({ length: 500 }, () => [0n, 0n, 0n, 0n, 300_000_000n, 900_000_000n])
    const window = { ...makeWindow({ baseFees: Array(500).fill(0n), next: 0n, rewards, intervalMs: 450 }), chainId: 56 }
    expect(lowestAcceptedTip(toFeeData(window), 600_000)).toBe(300_000_000n)
    for (const u of LEVELS) expect(windowLevels(window, chainFeePolicy(56))[u].maxPriorityFeePerGas).toBe(300_000_000n)
    expect(estimateLevels(toFeeData(window), chainFeePolicy(56)).low.maxPriorityFeePerGas).toBe(100_000_000n)
  })

  test('args: tips of 2 wei or less (system transactions) are not an accepted tip', () => {
    const rewards = Array.from({ length: 10 }, (_, i) => [i === 3 ? 2n : 60_000_000n, 0n, 0n, 0n, 0n, 0n])
    const window = makeWindow({ baseFees: Array(10).fill(0n), next: 0n, rewards, intervalMs: 450 })
    expect(lowestAcceptedTip(toFeeData(window), 600_000)).toBe(60_000_000n)
  })

  test('behavior: a node that reports a non-zero base fee keeps the headroom (max fee = tip would be refused)', () => {
    const levels = windowLevels(windowOf(56, GWEI, GWEI / 10n, 450), chainFeePolicy(56))
    for (const u of LEVELS) expect(levels[u].maxFeePerGas > GWEI + levels[u].maxPriorityFeePerGas).toBe(true)
  })
})

describe('opBNB (204): base fee 0, the tip plus the L1 data fee', () => {
  test('default: max fee = tip; transactionCost = gas × tip + the L1 data fee', () => {
    const window = windowOf(204, 0n, 1_001n * 1000n, 250)
    const policy = chainFeePolicy(204)
    const suggestions = levelSuggestions(window, windowPolicy(policy, window))
    for (const u of LEVELS) expect(suggestions[u].fees!.maxFeePerGas).toBe(suggestions[u].fees!.maxPriorityFeePerGas)
    const cost = transactionCost(window, suggestions, { gas: 21_000n }, { l1FeeRule: 'op-stack' })
    // the window holds no GasPriceOracle answer: the L1 part is unknown, the gas part is gas × tip
    expect(cost.l1DataFee).toBeNull()
    expect(cost.levels.medium.fee).toBe(21_000n * suggestions.medium.fees!.maxPriorityFeePerGas)
  })
})

describe("opBNB and Sonic: no level's tip under what the chain's pools take (1 wei and more), on a market of 1-wei tips or none", () => {
  test.each([
    // bnb-chain/op-geth legacypool PriceLimit 1 wei; the chain's gas page's 1001 wei minimum is suggested
    [204, 0n, 250, 1_001n],
    // 0xsoniclabs/sonic evmcore/tx_pool.go MinimumTip 1 wei
    [146, 50n * GWEI, 630, 1n],
  ])('behavior: chain %i (base fee %i wei, %i-ms blocks): every level tips %i wei or more', (chainId, baseFee, intervalMs, floor) => {
    for (const tip of [0n, 1n, 2n]) {
      const window = windowOf(chainId, baseFee, tip, intervalMs)
      const policy = chainFeePolicy(chainId)
      const levels = windowLevels(window, policy)
      const prices = windowGasPrices(window, policy, levels)
      for (const u of LEVELS) {
        expect(levels[u].maxPriorityFeePerGas).toBe(floor)
        expect(levels[u].maxFeePerGas >= floor).toBe(true)
        expect(prices[u] >= floor).toBe(true)
      }
      for (const p of windowConfidencePrices(window, policy, [70, 99])) expect(p.maxPriorityFeePerGas >= floor).toBe(true)
    }
  })
})

describe('Monad (143): its own base-fee rule, 100 gwei minimum, the head repeated as next, the gas limit charged', () => {
  const policy = chainFeePolicy(143)

  test("behavior: the forecast does not take the next block's base fee as known (the node repeats the head's): block head + 1 is one step on", () => {
    // a market that moves: 100–106 gwei, the head at 104
    const baseFees = Array.from({ length: 500 }, (_, i) => 100n * GWEI + BigInt((i * 5) % 7) * GWEI)
    const head = baseFees.at(-1)!
    const next = forecastBaseFee(baseFees, head, policy).horizons[0]!
    // e^(1/28) a block, rounded up (monad-tfm base_fee.rs): the next block may be that much above the head
    expect(next.bound).toBe((head * 1_036_360n + 999_999n) / 1_000_000n)
    expect(next.p99 > head).toBe(true)
    expect(next.p50 <= next.p90 && next.p90 <= next.p99 && next.p99 <= next.bound!).toBe(true)
    // a node that reports a base fee under the chain's 100-gwei minimum: no quantile above its bound
    const low = baseFees.map((b) => b - 20n * GWEI)
    for (const h of forecastBaseFee(low, low.at(-1)!, policy).horizons) expect(h.p99 <= h.bound!).toBe(true)
    // a chain whose node knows the next base fee: block head + 1 exact
    const known = forecastBaseFee(baseFees, head, { ...policy, rules: undefined }).horizons[0]!
    expect([known.p50, known.p99]).toEqual([head, head])
  })

  test("default: each cap (max fee − tip) is the estimator's, one more block of ×1.03636 on top, never under 100 gwei", () => {
    const window = windowOf(143, 100n * GWEI, GWEI / 2n, 300)
    const plain = estimateLevels(toFeeData(window), windowPolicy(policy, window))
    const ruled = windowLevels(window, policy)
    for (const u of LEVELS) {
      const cap = plain[u].maxFeePerGas - plain[u].maxPriorityFeePerGas
      expect(ruled[u].maxFeePerGas - ruled[u].maxPriorityFeePerGas).toBe((cap * 1_036_360n + 999_999n) / 1_000_000n)
      expect(ruled[u].maxFeePerGas - ruled[u].maxPriorityFeePerGas >= 100n * GWEI).toBe(true)
    }
    // one full block at Monad's rule (e^(1/28)), not EIP-1559's 12.5%
    expect(plain.high.maxFeePerGas - plain.high.maxPriorityFeePerGas < (100n * GWEI * 1_125n) / 1_000n).toBe(true)
  })

  test("behavior: blocks whose tips are 0.5 gwei suggest about that, not the node's hard-coded 2 gwei", () => {
    const levels = windowLevels(windowOf(143, 100n * GWEI, GWEI / 2n, 300), policy)
    for (const u of LEVELS) expect(levels[u].maxPriorityFeePerGas < 2n * GWEI).toBe(true)
  })

  test('behavior: a window whose node reports a base fee under the minimum: no cap under 100 gwei', () => {
    const levels = windowLevels(windowOf(143, 50n * GWEI, GWEI / 2n, 300), policy)
    for (const u of LEVELS) expect(levels[u].maxFeePerGas - levels[u].maxPriorityFeePerGas >= 100n * GWEI).toBe(true)
  })

  test.each([
    ['at the minimum', 100n * GWEI, (100n * GWEI * 1_036_360n + 999_999n) / 1_000_000n],
    ['reported under the minimum (no base fee under 100 gwei)', 50n * GWEI, 100n * GWEI],
  ])(
    "behavior: a legacy price (gasPrices, Blocknative's price), the head's base fee %s: one block's rise on, plus the tip",
    (_, baseFee, floor) => {
      const window = windowOf(143, baseFee, GWEI / 2n, 300)
      const levels = windowLevels(window, policy)
      const prices = windowGasPrices(window, policy, levels)
      for (const u of LEVELS) expect(prices[u]).toBe(floor + levels[u].maxPriorityFeePerGas)
      for (const p of windowConfidencePrices(window, policy, [70, 99])) expect(p.price).toBe(floor + p.maxPriorityFeePerGas)
    },
  )

  test('default: transactionCost says the gas limit is charged', () => {
    const window = windowOf(143, 100n * GWEI, GWEI / 2n, 300)
    const cost = transactionCost(window, levelSuggestions(window, policy), { gas: 50_000n }, { chargesGasLimit: true })
    expect(cost.gasCharged).toBe('limit')
    expect(transactionCost(window, levelSuggestions(window, policy), { gas: 50_000n }, {}).gasCharged).toBeUndefined()
  })
})

describe('Sonic (146): max fee ≥ 1.10 × the base fee; the base fee moves per second', () => {
  test.each([
    // e^(s/128) − 1 and 1 − e^(−s/128), rounded up to the ppm; a gap over 60 s counts as 60 s
    [1_000, 7_844n, 7_783n],
    [630, 4_935n, 4_910n],
    [120_000, 597_996n, 374_216n],
  ])('default: a %i ms interval bounds a block at +%i / −%i ppm', (intervalMs, rise, fall) => {
    const p = fastChainPolicy(chainFeePolicy(146), { ...windowOf(146, 50n * GWEI, 1n, intervalMs) })
    expect([p.maxBaseFeeRisePpm, p.maxBaseFeeFallPpm]).toEqual([rise, fall])
  })

  test("default: every level's max fee − tip is at least 1.10 × the next base fee", () => {
    const levels = windowLevels(windowOf(146, 50n * GWEI, 1n, 630), chainFeePolicy(146))
    for (const u of LEVELS) expect(levels[u].maxFeePerGas - levels[u].maxPriorityFeePerGas >= 55n * GWEI).toBe(true)
  })

  test("behavior: a Sonic node's eth_feeHistory (every base fee its MinGasPrice, 1.10 × the head's; gas used 0.99): the 1.10 is not taken twice", () => {
    // sonic api/ethapi/api.go FeeHistory: the head block's own base fee is 50 gwei, the history says 55 throughout
    const history = makeWindow({ baseFees: Array(500).fill(55n * GWEI), next: 55n * GWEI, ratios: Array(500).fill(0.99), intervalMs: 630 })
    const window = { ...history, chainId: 146, headBaseFeePerGas: String(50n * GWEI) }
    const levels = windowLevels(window, chainFeePolicy(146))
    const plain = estimateLevels(toFeeData(window), windowPolicy(chainFeePolicy(146), window))
    for (const u of LEVELS) expect(levels[u]).toEqual(plain[u])
    const prices = windowGasPrices(window, chainFeePolicy(146), levels)
    // what its own eth_gasPrice says (base × 1.10), plus the tip: never 1.21 × base
    for (const u of LEVELS) expect(prices[u]).toBe(55n * GWEI + levels[u].maxPriorityFeePerGas)
  })

  test("behavior: transactionCost's likely fee is at the block's own base fee (the header's), not the node's 1.10 × price", () => {
    const history = makeWindow({ baseFees: Array(500).fill(55n * GWEI), next: 55n * GWEI, ratios: Array(500).fill(0.99), intervalMs: 630 })
    const window = { ...history, chainId: 146, headBaseFeePerGas: String(50n * GWEI) }
    const suggestions = levelSuggestions(window, windowPolicy(chainFeePolicy(146), window))
    const cost = transactionCost(window, suggestions, { gas: 21_000n }, { chargedAtHeaderBaseFee: true })
    for (const u of LEVELS) {
      const tip = suggestions[u].fees!.maxPriorityFeePerGas
      expect(cost.levels[u].fee).toBe(21_000n * (50n * GWEI + tip))
      expect(cost.levels[u].maxFee).toBe(21_000n * suggestions[u].fees!.maxFeePerGas)
    }
  })

  test('behavior: a legacy price is a fee cap too (the pool refuses one under 1.05 × the base fee): 1.10 × it plus the tip', () => {
    const window = windowOf(146, 50n * GWEI, 1n, 630)
    const levels = windowLevels(window, chainFeePolicy(146))
    const prices = windowGasPrices(window, chainFeePolicy(146), levels)
    for (const u of LEVELS) expect(prices[u]).toBe(55n * GWEI + levels[u].maxPriorityFeePerGas)
    for (const p of windowConfidencePrices(window, chainFeePolicy(146), [70, 99])) expect(p.price).toBe(55n * GWEI + p.maxPriorityFeePerGas)
  })
})

describe('Sei (1329): the max fee floored at eth_gasPrice', () => {
  test.each([
    ['a floor above the levels', 5n * GWEI, true],
    ['a floor below the levels', 1n, false],
  ])('behavior: %s', (_, gasPrice, lifted) => {
    const window = windowOf(1329, GWEI, GWEI / 100n, 400, { chainReads: { gasPrice: String(gasPrice) } })
    const levels = windowLevels(window, chainFeePolicy(1329))
    for (const u of LEVELS) expect(levels[u].maxFeePerGas >= gasPrice).toBe(true)
    expect(levels.low.maxFeePerGas === gasPrice).toBe(lifted)
    const prices = windowGasPrices(window, chainFeePolicy(1329), levels)
    for (const u of LEVELS) expect(prices[u] >= gasPrice).toBe(true)
  })

  test('behavior: a window without the read (a node without it fails the read itself: read-from-url) has no floor', () => {
    const window = windowOf(1329, GWEI, GWEI / 100n, 400)
    expect(windowLevels(window, chainFeePolicy(1329))).toEqual(estimateLevels(toFeeData(window), chainFeePolicy(1329)))
  })
})

describe('HyperEVM (999): tips 0; the big-block lane from eth_bigBlockGasPrice, waits up to 60 s', () => {
  const window = windowOf(999, GWEI / 10n, GWEI, 1_000, { chainReads: { bigBlockGasPrice: String(2n * GWEI) } })

  test('default: the small lane suggests tip 0 at every level whatever the blocks carry', () => {
    for (const u of LEVELS) expect(windowLevels(window, chainFeePolicy(999))[u].maxPriorityFeePerGas).toBe(0n)
  })

  test('default: the big lane: tip 0, max fee the next big block base fee + 12.5%, waits 1 s – 60 s', () => {
    const levels = bigLaneLevels(window, chainFeePolicy(999))
    for (const u of LEVELS) {
      expect(levels[u]).toEqual({ maxPriorityFeePerGas: 0n, maxFeePerGas: 2_250_000_000n, minWaitTimeMs: 1_000, maxWaitTimeMs: 60_000 })
    }
  })

  test('error: the big lane without eth_bigBlockGasPrice, or on a chain without the lane', () => {
    expect(() => bigLaneLevels({ ...window, chainReads: {} }, chainFeePolicy(999))).toThrow(/eth_bigBlockGasPrice/)
    expect(() => bigLaneLevels(window, chainFeePolicy(1))).toThrow(/eth_bigBlockGasPrice/)
  })
})

describe('Arbitrum (42161): tips 0 unless getCollectTips(); the max fee floored at getMinimumGasPrice()', () => {
  const l1 = (extra: object) => ({ l1Fee: { rule: 'arbitrum' as const, perL1CalldataByte: '1600000', ...extra } })

  test.each([
    ['no answer', true, {}],
    ['getCollectTips() false', true, { collectTips: false }],
    ['getCollectTips() true', false, { collectTips: true }],
  ])('behavior: %s: every tip 0 is %s', (_, zero, extra) => {
    const window = windowOf(42161, GWEI / 50n, GWEI / 100n, 250, l1(extra))
    const tips = LEVELS.map((u) => windowLevels(window, chainFeePolicy(42161))[u].maxPriorityFeePerGas)
    expect(tips.every((t) => t === 0n)).toBe(zero)
  })

  test('behavior: a minimum gas price above the levels lifts every max fee to it, the ladder too', () => {
    const window = windowOf(42161, GWEI / 100n, GWEI / 100n, 250, l1({ minimumGasPrice: String(GWEI / 10n) }))
    for (const u of LEVELS) expect(windowLevels(window, chainFeePolicy(42161))[u].maxFeePerGas).toBe(GWEI / 10n)
    for (const p of windowConfidencePrices(window, chainFeePolicy(42161), [99, 50, 1])) expect(p.maxFeePerGas).toBe(GWEI / 10n)
  })
})

describe('every chain without rules: the answers are the estimator’s', () => {
  test.each([1, 10, 137, 8453, 59144, 43114, 12345])('default: chain %i', (chainId) => {
    const window = windowOf(chainId, 10n * GWEI, GWEI, 2_000)
    const policy = chainFeePolicy(chainId)
    expect(levelRulesOf(window, policy)).toBeNull()
    expect(windowLevels(window, policy)).toEqual(estimateLevels(toFeeData(window), windowPolicy(policy, window)))
    expect(buildFeeReport(window, policy).suggestedGasFees.low.suggestedMaxFeePerGas).toBeDefined()
  })
})

describe('applyLevelRules', () => {
  const none = { tipFloor: 0n, zeroBaseFee: false, capGrowthPpm: 0n, capFloor: 0n, maxFeeFloor: 0n }
  test.each([
    ['no rule', none, [5n, 105n]],
    ['a tip floor keeps the cap', { ...none, tipFloor: 8n }, [8n, 108n]],
    ['zero base fee', { ...none, zeroBaseFee: true, tipFloor: 8n }, [8n, 8n]],
    ['cap growth 10%', { ...none, capGrowthPpm: 100_000n }, [5n, 115n]],
    ['cap floor', { ...none, capFloor: 200n }, [5n, 205n]],
    ['max fee floor', { ...none, maxFeeFloor: 300n }, [5n, 300n]],
  ])('args: %s', (_, rules, [tip, maxFee]) => {
    expect(applyLevelRules({ maxPriorityFeePerGas: 5n, maxFeePerGas: 105n }, rules)).toEqual({
      maxPriorityFeePerGas: tip,
      maxFeePerGas: maxFee,
    })
  })
})
