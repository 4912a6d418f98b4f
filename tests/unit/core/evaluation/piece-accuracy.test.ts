// The accuracy per piece: each followed piece's suggestion judged on the pieces after it, by the lenient judge,
// with read gaps splitting the runs and unchanged reads counting as pieces with room.
import { describe, expect, test } from 'vitest'
import { pieceAccuracyOf } from '@/lib/core/evaluation/piece-accuracy'
import { pieceDemand, pieceLevels } from '@/lib/core/fee-math/flashblocks'
import type { LevelEstimate, PendingPieces, SeenPiece, Urgency } from '@/lib/core/types'

const GWEI = 1_000_000_000n
const CADENCE = 200
const PIECES = 10
const LIMIT = 30_000_000n
const T0 = 1_800_000_000_000

/** The state of block 101's successor pieces at global slot s: piece s % 10 of block 101 + ⌊s / 10⌋; `full` fills it to its budget with `tips`. */
function state(slot: number, opts: { full: boolean; tips?: bigint[]; readAt?: number }): PendingPieces {
  const piece = Math.max(1, slot % PIECES)
  const perPiece = LIMIT / BigInt(PIECES)
  const used = opts.full ? BigInt(piece) * perPiece : BigInt(piece) * 21_000n
  const tips = opts.tips ?? [GWEI]
  return {
    blockNumber: 101 + Math.floor(slot / PIECES),
    piece,
    pieces: PIECES,
    cadenceMs: CADENCE,
    gasLimit: String(LIMIT),
    gasUsed: String(used),
    newest: tips.map((t) => ({ tip: String(t), gas: String(perPiece / BigInt(tips.length)) })),
    readAt: opts.readAt ?? T0 + slot * CADENCE,
  }
}
const seen = (view: PendingPieces, lastReadAt = view.readAt): SeenPiece => ({ view, lastReadAt })

/** Levels at a fixed price, waiting whole pieces in whole milliseconds, as the service answers. */
const fixed =
  (tip: bigint, maxFee: bigint, waitPieces: Record<Urgency, number> = { low: 6, medium: 3, high: 2 }, cadence = CADENCE) =>
  () =>
    Object.fromEntries(
      (['low', 'medium', 'high'] as const).map((l) => [
        l,
        {
          maxPriorityFeePerGas: tip,
          maxFeePerGas: maxFee,
          minWaitTimeMs: Math.round(cadence),
          maxWaitTimeMs: Math.round(waitPieces[l] * cadence),
        },
      ]),
    ) as Record<Urgency, LevelEstimate>

const inputs = (suggest: (p: PendingPieces) => Record<Urgency, LevelEstimate>, baseFee = GWEI) => ({
  baseFeeOf: () => baseFee,
  minTip: 0n,
  suggest,
})

describe('pieceDemand', () => {
  test('behavior: a full piece demands its lowest real tip; a piece with room the chain minimum', () => {
    expect(pieceDemand(state(3, { full: true, tips: [1n, 5n * GWEI, 7n * GWEI] }), 0n)).toBe(5n * GWEI)
    expect(pieceDemand(state(3, { full: false, tips: [5n * GWEI] }), 3n)).toBe(3n)
  })
})

describe('pieceAccuracyOf', () => {
  test('behavior: pieces with room take every level at the next piece; trials stop where the reads have not reached the promise', () => {
    const pieces = Array.from({ length: 30 }, (_, s) => seen(state(s, { full: false })))
    const r = pieceAccuracyOf(pieces, inputs(fixed(0n, 2n * GWEI)))!
    for (const [level, promise] of [
      ['low', 6],
      ['medium', 3],
      ['high', 2],
    ] as const) {
      expect(r.levels[level]).toMatchObject({
        trials: 30 - promise,
        promisedPieces: promise,
        includedWithinPromise: 1,
        medianWaitPieces: 1,
      })
    }
    expect(r).toMatchObject({ cadenceMs: CADENCE, piecesPerBlock: PIECES, piecesSeen: 30 })
    expect(r.judgedPieces).toEqual({ from: { blockNumber: 101, piece: 1 }, to: { blockNumber: 103, piece: 7 } })
  })

  test('behavior: at a cadence of no whole milliseconds (9 pieces in 2 s), each level is held to the pieces it promised', () => {
    const cadence = 2_000 / 9
    const pieces = Array.from({ length: 30 }, (_, s) =>
      seen({ ...state(s, { full: false, readAt: T0 + s * cadence }), cadenceMs: cadence }),
    )
    // the answers' waits are whole milliseconds: 6 pieces are 1,333 ms, 2 pieces 444 ms
    const r = pieceAccuracyOf(pieces, inputs(fixed(0n, 2n * GWEI, undefined, cadence)))!
    expect([r.levels.low.promisedPieces, r.levels.medium.promisedPieces, r.levels.high.promisedPieces]).toEqual([6, 3, 2])
    expect(r.levels.high.trials).toBe(30 - 2)
  })

  test('behavior: full pieces at 2 gwei keep out a 1-gwei tip, and take a 3-gwei one, whose overpayment is against the cheapest piece', () => {
    const pieces = Array.from({ length: 20 }, (_, s) => seen(state(s, { full: true, tips: [2n * GWEI, 4n * GWEI] })))
    const low = pieceAccuracyOf(pieces, inputs(fixed(GWEI, 5n * GWEI)))!
    expect(low.levels.medium).toMatchObject({ includedWithinPromise: 0, medianWaitPieces: null, medianOverpayment: null })
    const high = pieceAccuracyOf(pieces, inputs(fixed(3n * GWEI, 5n * GWEI)))!
    expect(high.levels.medium).toMatchObject({ includedWithinPromise: 1, medianWaitPieces: 1 })
    // paid 1 + 3 gwei against the cheapest 1 + 2
    expect(high.levels.medium.medianOverpayment).toBeCloseTo(1 / 3, 9)
  })

  test('behavior: a max fee below the base fee is not included, whatever its tip', () => {
    const pieces = Array.from({ length: 20 }, (_, s) => seen(state(s, { full: false })))
    const r = pieceAccuracyOf(pieces, inputs(fixed(GWEI, 2n * GWEI), 3n * GWEI))!
    expect(r.levels.high.includedWithinPromise).toBe(0)
  })

  test('behavior: a read gap of more than three pieces splits the runs: no trial is judged across it', () => {
    const early = Array.from({ length: 8 }, (_, s) => seen(state(s, { full: false })))
    const late = Array.from({ length: 8 }, (_, s) => seen(state(s + 50, { full: false })))
    const r = pieceAccuracyOf([...early, ...late], inputs(fixed(0n, 2n * GWEI)))!
    // each run of 8 pieces judges 8 − promise of them
    expect(r.levels.low.trials).toBe(2 * (8 - 6))
    expect(r.levels.high.trials).toBe(2 * (8 - 2))
  })

  test('behavior: reads that found a state unchanged count as pieces with room after it', () => {
    // a full piece at slot 0, then the reads found it unchanged for 4 pieces, then full pieces again
    const pieces = [
      seen(state(0, { full: true, tips: [5n * GWEI] }), T0 + 4 * CADENCE),
      ...Array.from({ length: 10 }, (_, s) => seen(state(s + 5, { full: true, tips: [5n * GWEI] }))),
    ]
    const r = pieceAccuracyOf(pieces, inputs(fixed(GWEI, 10n * GWEI)))!
    // the suggestion at slot 0 gets in at slot 1 (a quiet piece); the later ones meet only full 5-gwei pieces
    expect(r.levels.high.trials).toBe(1 + 10 - 2)
    expect(r.levels.high.includedWithinPromise).toBeCloseTo(1 / 9, 9)
    expect(r.piecesSeen).toBe(11)
  })

  test('behavior: the flashblocks levels (pieceLevels) keep their promise through a burst that fills every piece', () => {
    // a burst: pieces 20–39 full, their lowest tip 2 gwei; room before and after
    const burst = (s: number) => s >= 20 && s < 40
    const pieces = Array.from({ length: 60 }, (_, s) =>
      seen(state(s, burst(s) ? { full: true, tips: [2n * GWEI, 4n * GWEI] } : { full: false })),
    )
    const sealed = fixed(GWEI / 1000n, 3n * GWEI)()
    const r = pieceAccuracyOf(
      pieces,
      inputs((p) => pieceLevels(sealed, p, GWEI / 1000n), GWEI / 2n),
    )!
    // only the suggestion made on the last piece with room (the chain's floor) misses: the burst's 20 full pieces keep
    // it out; every other gets in at the next piece, the burst's at 2 gwei + 1 wei
    for (const [level, promise] of [
      ['low', 6],
      ['medium', 3],
      ['high', 2],
    ] as const) {
      const trials = 60 - promise
      expect(r.levels[level]).toMatchObject({ trials, includedWithinPromise: (trials - 1) / trials })
    }
    expect(r.levels.high).toMatchObject({ trials: 58, medianWaitPieces: 1 })
  })

  test('behavior: a burst whose lowest tip rises every piece beats a tip made on the newest piece, and the judge shows it', () => {
    const pieces = Array.from({ length: 40 }, (_, s) => seen(state(s, { full: true, tips: [2n * GWEI + BigInt(s) * 1000n, 4n * GWEI] })))
    const sealed = fixed(GWEI / 1000n, 3n * GWEI)()
    const r = pieceAccuracyOf(
      pieces,
      inputs((p) => pieceLevels(sealed, p, GWEI / 1000n), GWEI / 2n),
    )!
    // a tip of the newest piece's lowest + 1 wei meets none of the next pieces, which demand 1000 wei more each
    for (const level of ['low', 'medium', 'high'] as const) expect(r.levels[level].includedWithinPromise).toBe(0)
  })

  test('behavior: a state without user transactions (a block’s first piece) takes no newcomer', () => {
    // every other state is a block's opening (system transactions only); a 1-wei tip gets in only at the others
    const pieces = Array.from({ length: 20 }, (_, s) => seen({ ...state(s, { full: false }), ...(s % 2 ? {} : { newest: [] }) }))
    const r = pieceAccuracyOf(pieces, inputs(fixed(1n, 2n * GWEI, { low: 6, medium: 3, high: 1 })))!
    // high promises one piece: the 9 suggestions made just before an opening (odd states) meet it next, and wait two
    expect(r.levels.high).toMatchObject({ trials: 19, includedWithinPromise: 10 / 19, medianWaitPieces: 1 })
    expect(r.levels.medium).toMatchObject({ includedWithinPromise: 1 })
  })
})
