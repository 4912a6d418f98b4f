import { describe, expect, test } from 'vitest'
import {
  gasPerPiece,
  LEVEL_PIECES,
  pieceBudget,
  pieceLevels,
  piecesFull,
  piecesUntilRoom,
  pieceTipToBeat,
  pieceWaits,
  piecesPerBlock,
  marginalTip,
  pieceTip,
  piecesCrowded,
  quietPieces,
  crowdedAfter,
  type CrowdedDemand,
} from '@/lib/core/fee-math/flashblocks'
import { inclusionTip, LEVEL_SETTINGS } from '@/lib/core/fee-math/estimator'
import { waitInPieces } from '@/lib/core/units'
import { piecedLevels, windowLevels } from '@/lib/core/fee-math/chain-levels'
import { confidencePrices } from '@/lib/core/fee-math/confidence'
import { toFeeData } from '@/lib/core/fee-math/fee-data'
import { chainFeePolicy } from '@/lib/core/chain-rules/chain-policy'
import type { FeeWindow, LevelEstimate, PendingPieces, Urgency } from '@/lib/core/types'

/** Base's shape: 10 pieces of a 2-s block, 200 ms apart, a 400M gas limit (docs.base.org transaction ordering). */
const pending = (over: Partial<PendingPieces> = {}): PendingPieces => ({
  blockNumber: 101,
  piece: 3,
  pieces: 10,
  cadenceMs: 200,
  gasLimit: '400000000',
  gasUsed: '1000000',
  newest: [1_000_000, 2_000_000, 5_000_000, 9_000_000].map((tip) => ({ tip: String(tip), gas: '21000' })),
  readAt: 0,
  ...over,
})

describe('pieceBudget', () => {
  test('default: j · floor(L/N), never above the gas limit (op-rbuilder target_gas_for_batch)', () => {
    const p = pending({ gasLimit: '1000003', pieces: 10 })
    expect(gasPerPiece(p)).toBe(100_000n)
    expect([1, 2, 3, 10, 11].map((j) => pieceBudget(p, j))).toEqual([100_000n, 200_000n, 300_000n, 1_000_000n, 1_000_003n])
  })
})

describe('piecesFull', () => {
  test.each([
    ['piece 0 (the system transactions only) is never full', { piece: 0, gasUsed: '0' }, false],
    ['calm: a few transfers in piece 3', { piece: 3, gasUsed: '1000000' }, false],
    ['piece 3 at its cumulative budget of 120M', { piece: 3, gasUsed: '120000000' }, true],
    ['within a fifth of a piece (8M) of it', { piece: 3, gasUsed: '112000001' }, true],
    ['just more room than that', { piece: 3, gasUsed: '111999999' }, false],
  ] as const)('behavior: %s', (_, over, full) => {
    expect(piecesFull(pending(over))).toBe(full)
  })
})

describe('piecesUntilRoom', () => {
  test.each([
    ['a transfer in calm waits for the next piece', { gasUsed: '1000000' }, 21_000n, 1],
    ['a limit above the room of piece 4 (160M − 150M) waits for piece 5', { gasUsed: '150000000' }, 15_000_000n, 2],
    ['the unused budget carries forward: 79M fits piece 4 after 1M used', { gasUsed: '1000000' }, 79_000_000n, 1],
    ['past the last piece, the next block’s pieces from the first', { piece: 10, gasUsed: '399990000' }, 21_000n, 1],
    ['a limit of 2.5 pieces at the block’s end', { piece: 9, gasUsed: '360000000' }, 100_000_000n, 1 + 3],
  ] as const)('behavior: %s', (_, over, gas, pieces) => {
    expect(piecesUntilRoom(pending(over), gas)).toBe(pieces)
  })
})

describe('pieceWaits', () => {
  test('default: from the next piece to the level’s promise in pieces, at the measured cadence', () => {
    const p = pending({ cadenceMs: 250 })
    for (const level of ['low', 'medium', 'high'] as const) {
      expect(pieceWaits(p, level)).toEqual({ minWaitTimeMs: 250, maxWaitTimeMs: 250 * LEVEL_PIECES[level] })
    }
  })

  test('args: gas: a padded gas limit waits for a later piece', () => {
    const p = pending({ gasUsed: '150000000' })
    expect(pieceWaits(p, 'high', 21_000n)).toEqual({ minWaitTimeMs: 200, maxWaitTimeMs: 400 })
    expect(pieceWaits(p, 'high', 15_000_000n)).toEqual({ minWaitTimeMs: 400, maxWaitTimeMs: 600 })
  })

  test('behavior: waitInPieces takes the waits back to whole pieces, also at a cadence of no whole milliseconds', () => {
    // 9 pieces in a 2-s block: 222.2 ms each, the waits rounded to the millisecond; a transfer from the next piece,
    // and 15M gas from the one after (pieces 2, 3, 4 and 7: 444.4 rounds down, the others up)
    const cadenceMs = 2000 / 9
    const p = pending({ cadenceMs, gasUsed: '150000000' })
    for (const [gas, first] of [
      [21_000n, 1],
      [15_000_000n, 2],
    ] as const) {
      expect(piecesUntilRoom(p, gas)).toBe(first)
      for (const level of ['low', 'medium', 'high'] as const) {
        const w = pieceWaits(p, level, gas)
        expect([waitInPieces(w.minWaitTimeMs, cadenceMs), waitInPieces(w.maxWaitTimeMs, cadenceMs)]).toEqual([
          first,
          first - 1 + LEVEL_PIECES[level],
        ])
      }
    }
  })

  test('behavior: piecesPerBlock takes a published piece interval for a measured step from 5% under it to a fifth over it', () => {
    // Base: 2-s blocks, 200-ms pieces published; a busy probe's steps of 215–239 ms would read as 9 or 8 pieces
    for (const step of [190, 200, 215, 239]) expect(piecesPerBlock(2_000, step, 200)).toBe(10)
    expect(piecesPerBlock(2_000, 215)).toBe(9)
    // outside the band is the chain's own cadence, measured: the builder's 250-ms default, or faster pieces
    expect(piecesPerBlock(2_000, 240, 200)).toBe(8)
    expect(piecesPerBlock(2_000, 250, 200)).toBe(8)
    expect(piecesPerBlock(2_000, 175, 200)).toBe(11)
    // Unichain: 1-s blocks of 5 pieces; a step read long is 5, at 250 ms it stays 4
    expect(piecesPerBlock(1_000, 230, 200)).toBe(5)
    expect(piecesPerBlock(1_000, 250, 200)).toBe(4)
    // never fewer than 2 pieces a block
    expect(piecesPerBlock(2_000, 1_900)).toBe(2)
  })
})

/** Sealed-block levels as the estimator would make them: tip t, max fee base cap + t, 2–12 s waits. */
const sealed = (tips: Record<Urgency, bigint>): Record<Urgency, LevelEstimate> => {
  const cap = { low: 10_000_000n, medium: 11_000_000n, high: 12_000_000n }
  const waits = { low: 12_000, medium: 6_000, high: 4_000 }
  const out = {} as Record<Urgency, LevelEstimate>
  for (const l of ['low', 'medium', 'high'] as const) {
    out[l] = { maxPriorityFeePerGas: tips[l], maxFeePerGas: cap[l] + tips[l], minWaitTimeMs: 2_000, maxWaitTimeMs: waits[l] }
  }
  return out
}

describe('pieceLevels', () => {
  const burstTips = { low: 50_000_000n, medium: 60_000_000n, high: 90_000_000n }

  // a full piece: five 9.9M-gas transactions at 40–80 mgwei, and two transfers that filled the gap at 1–2 mgwei
  const fullPiece = [
    { tip: '1000000', gas: '21000' },
    { tip: '2000000', gas: '21000' },
    ...[40, 50, 60, 70, 80].map((m) => ({ tip: String(m * 1_000_000), gas: '9900000' })),
  ]

  test('behavior: full pieces: every tip beats the newest piece’s marginal tip, not the gap-fillers’; high the tip of its first three quarters', () => {
    const p = pending({ gasUsed: '120000000', newest: fullPiece })
    expect(marginalTip(p, 0.95)).toBe(40_000_000n)
    expect(marginalTip(p, 0.75)).toBe(50_000_000n)
    expect(pieceTipToBeat(p)).toBe(40_000_000n)
    const out = pieceLevels(sealed({ low: 1n, medium: 2n, high: 3n }), p, 1_000_000n)
    expect(out.low.maxPriorityFeePerGas).toBe(40_000_001n)
    expect(out.medium.maxPriorityFeePerGas).toBe(40_000_001n)
    expect(out.high.maxPriorityFeePerGas).toBe(50_000_001n)
    // the max fee keeps the level's headroom over the base fee
    expect(out.high.maxFeePerGas).toBe(12_000_000n + 50_000_001n)
    expect(out.high).toMatchObject({ minWaitTimeMs: 200, maxWaitTimeMs: 400 })
  })

  test('behavior: room in the pieces: nothing to beat', () => {
    expect(pieceTipToBeat(pending({ newest: fullPiece }))).toBeNull()
  })

  test('behavior: room again: the chain’s floor, whatever burst the sealed blocks still show', () => {
    const out = pieceLevels(sealed(burstTips), pending({ gasUsed: '1000000' }), 1_000_000n)
    for (const l of ['low', 'medium', 'high'] as const) {
      expect(out[l].maxPriorityFeePerGas).toBe(1_000_000n)
      expect(out[l].maxFeePerGas - out[l].maxPriorityFeePerGas).toBe(sealed(burstTips)[l].maxFeePerGas - burstTips[l])
    }
    expect(out.low.maxWaitTimeMs).toBe(1_200)
  })

  test('behavior: room after full pieces: low and medium at the floor; high beats its inclusion quantile of what the full pieces demanded, a burst may begin at the next piece', () => {
    const crowdedDemands = ['3000000', '2000000', '4000000', '2000000', '5000000', '1000000', '3000000']
    const out = pieceLevels(sealed(burstTips), pending({ gasUsed: '1000000', crowdedDemands }), 1_000_000n)
    expect(out.low.maxPriorityFeePerGas).toBe(1_000_000n)
    expect(out.medium.maxPriorityFeePerGas).toBe(1_000_000n)
    const high = inclusionTip(crowdedDemands.map(BigInt), { targetInclusion: 0.99, waitBlocks: LEVEL_PIECES.high })
    // two pieces in a row: the runs' minima 2, 2, 2, 2, 1, 1 (mgwei); at least two above the quantile
    expect(high).toBe(2_000_000n)
    expect(out.high.maxPriorityFeePerGas).toBe(high + 1n)
    expect(out.high.maxFeePerGas - out.high.maxPriorityFeePerGas).toBe(sealed(burstTips).high.maxFeePerGas - burstTips.high)
    // never below the floor; the ladder's high confidences alike, its low ones at the floor
    expect(pieceLevels(sealed(burstTips), pending({ gasUsed: '1000000', crowdedDemands }), 9_000_000n).high.maxPriorityFeePerGas).toBe(
      9_000_000n,
    )
    const p = pending({ gasUsed: '1000000', crowdedDemands })
    expect(pieceTip(p, 1_000_000n, { targetInclusion: 0.99, waitBlocks: 1 }, true)).toBe(3_000_001n)
    expect(pieceTip(p, 1_000_000n, { targetInclusion: 0.5, waitBlocks: 1 }, false)).toBe(1_000_000n)
  })

  test('behavior: full pieces whose lowest tips moved: each level at least its inclusion quantile of the recent pieces (estimator inclusionTip)', () => {
    // the newest piece's marginal is 40 mgwei, but of the last ten pieces' demands every other one was 70 mgwei
    const recentDemands = Array.from({ length: 10 }, (_, i) => String((i % 2 ? 70 : 30) * 1_000_000))
    const p = pending({ gasUsed: '120000000', newest: fullPiece, recentDemands })
    const out = pieceLevels(sealed({ low: 1n, medium: 2n, high: 3n }), p, 1_000_000n)
    const quantile = (level: 'low' | 'medium' | 'high') =>
      inclusionTip(recentDemands.map(BigInt), { targetInclusion: LEVEL_SETTINGS[level].targetInclusion, waitBlocks: LEVEL_PIECES[level] })
    // two pieces in a row are 30 and 70: high's 99% of those runs is 30, but one piece alone would need 70
    expect(quantile('high')).toBe(30_000_000n)
    expect(out.high.maxPriorityFeePerGas).toBe(50_000_001n)
    const single = pieceTip(p, 1_000_000n, { targetInclusion: 0.99, waitBlocks: 1 }, true)
    expect(single).toBe(70_000_000n)
  })

  test('behavior: a block’s first piece (no user transaction yet) after a full piece still outbids: the last piece’s demand + 1', () => {
    const opening = pending({ piece: 1, gasUsed: '45000', newest: [], recentDemands: ['50000000', '60000000'] })
    expect(piecesCrowded(opening)).toBe(true)
    const out = pieceLevels(sealed(burstTips), opening, 1_000_000n)
    expect(out.low.maxPriorityFeePerGas).toBe(60_000_001n)
    // after a piece with room, it is room
    const calm = pending({ piece: 1, gasUsed: '45000', newest: [], recentDemands: ['50000000', '0'] })
    expect(piecesCrowded(calm)).toBe(false)
    expect(pieceLevels(sealed(burstTips), calm, 1_000_000n).high.maxPriorityFeePerGas).toBe(1_000_000n)
    // high, there too, beats its quantile of what the recent full pieces demanded
    const crowdedDemands = Array.from({ length: 30 }, (_, i) => String((50 + (i % 7) * 5) * 1_000_000))
    const high = inclusionTip(crowdedDemands.map(BigInt), { targetInclusion: 0.99, waitBlocks: LEVEL_PIECES.high })
    expect(high).toBeGreaterThan(60_000_001n)
    const insured = pieceLevels(sealed(burstTips), { ...opening, crowdedDemands }, 1_000_000n)
    expect(insured.high.maxPriorityFeePerGas).toBe(high + 1n)
    expect(insured.medium.maxPriorityFeePerGas).toBe(60_000_001n)
  })

  test('behavior: a chain where tips buy nothing keeps its tips; only the waits are in pieces', () => {
    const levels = sealed({ low: 0n, medium: 0n, high: 0n })
    const out = pieceLevels(levels, pending({ gasUsed: '120000000' }), null)
    expect(out.high).toEqual({ ...levels.high, minWaitTimeMs: 200, maxWaitTimeMs: 400 })
  })
})

describe('crowdedAfter', () => {
  const state = (readAt: number, full: boolean, lowest: number) =>
    pending({ readAt, gasUsed: full ? '120000000' : '1000000', newest: [{ tip: String(lowest), gas: '21000' }] })
  const follow = (views: PendingPieces[], max: number, maxAgeMs: number) =>
    views.reduce((kept, v) => crowdedAfter(kept, v, max, maxAgeMs), [] as CrowdedDemand[]).map((c) => c.demand)
  const states = [state(0, true, 7), state(200, true, 8), state(400, false, 9), state(600, true, 10), state(800, true, 11)]
  test('behavior: the full states’ demands, oldest first and the newest last; at most `max`, none older than `maxAgeMs`', () => {
    expect(follow(states, 10, 60_000)).toEqual(['7', '8', '10', '11'])
    expect(follow(states, 2, 60_000)).toEqual(['10', '11'])
    expect(follow(states, 10, 600)).toEqual(['8', '10', '11'])
    // a state with room adds nothing, and a state read long after forgets them all
    expect(follow([...states.slice(0, 4), state(800, false, 11)], 10, 60_000)).toEqual(['7', '8', '10'])
    expect(follow([...states, state(70_000, false, 1)], 10, 60_000)).toEqual([])
  })
})

describe('windowLevels', () => {
  const window = (p?: PendingPieces): FeeWindow => ({
    chainId: 8453,
    oldestBlock: 61,
    headNumber: 100,
    headTimestamp: 0,
    blockIntervalMs: 2_000,
    intervalAnchor: null,
    baseFeePerGas: Array(40).fill('5000000'),
    nextBaseFeePerGas: '5000000',
    gasUsedRatio: Array(40).fill(0.99),
    rewardPercentiles: [0, 1, 5, 10, 50, 100],
    reward: Array(40).fill(['30000000', '30000000', '30000000', '30000000', '40000000', '90000000']),
    fetchedAt: 0,
    ...(p ? { pending: p } : {}),
  })
  // Base's policy without its live extraData parameters: the tip floor is op-geth's 0.001 gwei
  const policy = chainFeePolicy(8453)

  test('behavior: without pending pieces the levels are the sealed blocks’ (unchanged)', () => {
    const out = windowLevels(window(), policy)
    expect(out.high.maxPriorityFeePerGas).toBe(30_000_000n)
    expect(out.high.maxWaitTimeMs).toBe(4_000)
  })

  test('behavior: with pending pieces that have room, a burst of full sealed blocks is forgotten', () => {
    const out = windowLevels(window(pending()), policy)
    expect(out.high.maxPriorityFeePerGas).toBe(policy.minSuggestedPriorityFeeWei)
    expect(out.high).toMatchObject({ minWaitTimeMs: 200, maxWaitTimeMs: 400 })
  })

  test('behavior: the Blocknative ladder with room after full pieces: 90% and up beat their quantile of the full pieces’ demands, below 90% the floor', () => {
    const crowdedDemands = Array.from({ length: 40 }, (_, i) => String((2 + (i % 5)) * 1_000_000))
    const ladder = confidencePrices(toFeeData(window(pending({ crowdedDemands }))), policy, [99, 90, 80])
    const quantile = (c: number) => inclusionTip(crowdedDemands.map(BigInt), { targetInclusion: c / 100, waitBlocks: 1 })
    expect(ladder.map((l) => l.maxPriorityFeePerGas)).toEqual([quantile(99) + 1n, quantile(90) + 1n, policy.minSuggestedPriorityFeeWei])
    expect(quantile(99)).toBeGreaterThan(policy.minSuggestedPriorityFeeWei)
  })

  test('behavior: piecedLevels gives each piece what windowLevels answers with that piece laid over', () => {
    const levels = piecedLevels(window(), policy)
    for (const p of [pending(), pending({ gasUsed: '120000000' })]) expect(levels(p)).toEqual(windowLevels(window(p), policy))
  })
})

describe('quietPieces', () => {
  test('behavior: the whole pieces a state stood unchanged after its read, never reaching the next state', () => {
    // 200-ms pieces; read at 1,000, found unchanged until 1,630: three quiet pieces after it
    expect(quietPieces(1_000, 1_630, 200)).toBe(3)
    // the next state, read at 1,610, has the third piece as its own: two quiet pieces before it
    expect(quietPieces(1_000, 1_630, 200, 1_610)).toBe(2)
    // a last look a hair short of a whole piece (float error: 0.6 / 0.2 is 2.9999999999999996) still counts it
    expect(quietPieces(0.1, 0.7, 0.2)).toBe(3)
    // none after a state the next read already changed, nor when the next state came within half a piece
    expect(quietPieces(1_000, 1_000, 200, 1_200)).toBe(0)
    expect(quietPieces(1_000, 1_000, 200, 1_050)).toBe(0)
  })
})
