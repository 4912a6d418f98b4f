/**
 * The service's own accuracy per piece on a flashblocks chain: each piece's suggestion judged on the pieces after it,
 * as ./accuracy.ts judges each block's on the blocks after it, by the same lenient judge (./judge.ts). Pure.
 */
import { LEVEL_SETTINGS } from '../fee-math/estimator'
import { pieceDemand, quietPieces } from '../fee-math/flashblocks'
import { quantile } from './backtest'
import { waitInPieces } from '../units'
import type { LevelEstimate, PendingPieces, SeenPiece, Urgency } from '../types'

/** One level's record over the judged pieces' suggestions. */
export type LevelPieceAccuracy = {
  trials: number
  /** Pieces the level promises (its maxWaitTimeEstimate over the cadence; the median over the trials). */
  promisedPieces: number
  /** Share of the trials included within the promised pieces, 0…1; null without trials. */
  includedWithinPromise: number | null
  targetInclusion: number
  /** Median pieces until inclusion, over the trials included (null: none was). */
  medianWaitPieces: number | null
  /** Median of paid / the cheapest price that would have got in within the same wait − 1 (null: none included). */
  medianOverpayment: number | null
}

export type PieceAccuracy = {
  /** The cadence and pieces per block the pieces were followed at (the newest piece's). */
  cadenceMs: number
  piecesPerBlock: number
  /** States of the pending block the feed read (in blocks the window holds), and the first and last judged. */
  piecesSeen: number
  judgedPieces: { from: PieceRef; to: PieceRef } | null
  /** Seconds between the first and last judged piece. */
  spanSeconds: number
  levels: Record<Urgency, LevelPieceAccuracy>
}

type PieceRef = { blockNumber: number; piece: number }

/** What the judge needs of the window: a block's base fee (null: unknown), and the chain's minimum tip. */
export type PieceJudgeInputs = {
  baseFeeOf: (blockNumber: number) => bigint | null
  minTip: bigint
  /** The levels the service answered with at a piece. */
  suggest: (piece: PendingPieces) => Record<Urgency, LevelEstimate>
}

/** Reads further apart than this many pieces end a run of pieces (nobody asked, or the reads failed): no trial spans it. */
const MAX_GAP_PIECES = 3
/** A trial looks for its inclusion this many times its promise ahead, as the block backtest does. */
const HORIZON_FACTOR = 3

type Seen = { view: PendingPieces; slot: number; run: number; baseFee: bigint; demand: bigint | null; trial: boolean }

/**
 * The pieces as the judge counts them: a slot per cadence on the read clock, a state's own and, while later reads found
 * it unchanged, the quiet pieces after it (room: the chain's minimum; not trials of their own). Split into runs where
 * no read came for more than MAX_GAP_PIECES pieces or a block's base fee is unknown.
 */
function slotted(pieces: readonly SeenPiece[], inputs: PieceJudgeInputs): Seen[] {
  const out: Seen[] = []
  let [slot, run] = [0, 0]
  for (const [i, { view, lastReadAt }] of pieces.entries()) {
    const baseFee = inputs.baseFeeOf(view.blockNumber)
    const prev = pieces[i - 1]
    const c = view.cadenceMs
    if (!prev || baseFee === null || view.readAt - prev.lastReadAt > MAX_GAP_PIECES * c) run++
    slot += prev ? Math.max(1, Math.round((view.readAt - prev.view.readAt) / c)) : 0
    if (baseFee === null) continue
    // a state without user transactions (a block's first piece, its system transactions only) took no newcomer
    const demand = view.newest.length ? pieceDemand(view, inputs.minTip) : null
    out.push({ view, slot, run, baseFee, demand, trial: true })
    const quiet = quietPieces(view.readAt, lastReadAt, c, pieces[i + 1]?.view.readAt)
    for (let q = 1; q <= quiet; q++) out.push({ view, slot: slot + q, run, baseFee, demand: inputs.minTip, trial: false })
  }
  return out
}

/**
 * Each piece's suggestion, per level, judged on the pieces after it: included at the first whose block's base fee its
 * max fee covers and whose demand its effective tip meets; in its promise when that is within maxWait ÷ cadence
 * pieces. A suggestion is judged once the run of pieces read after it reaches its promise. `pieces`: oldest first.
 */
export function pieceAccuracyOf(pieces: readonly SeenPiece[], inputs: PieceJudgeInputs): PieceAccuracy | null {
  const newest = pieces.at(-1)?.view
  if (!newest) return null
  const seen = slotted(pieces, inputs)
  const lastSlot = new Map<number, number>()
  for (const s of seen) lastSlot.set(s.run, s.slot)
  const levels = ['low', 'medium', 'high'] as const
  const acc = Object.fromEntries(
    levels.map((l) => [l, { ins: [] as boolean[], waits: [] as number[], over: [] as number[], promised: [] as number[] }]),
  )
  let [first, last]: (Seen | undefined)[] = [undefined, undefined]
  for (const [i, s] of seen.entries()) {
    if (!s.trial) continue
    const sug = inputs.suggest(s.view)
    let judged = false
    for (const level of levels) {
      const l = sug[level]
      const promised = waitInPieces(l.maxWaitTimeMs, s.view.cadenceMs)
      if (s.slot + promised > lastSlot.get(s.run)!) continue
      const outcome = includedAt(l, seen, i, promised * HORIZON_FACTOR)
      const a = acc[level]!
      a.promised.push(promised)
      a.ins.push(outcome !== null && outcome.wait <= promised)
      if (outcome) a.waits.push(outcome.wait)
      if (outcome && outcome.wait <= promised && outcome.overpayment !== null) a.over.push(outcome.overpayment)
      judged = true
    }
    if (judged) [first, last] = [first ?? s, s]
  }
  const level = (l: Urgency): LevelPieceAccuracy => {
    const a = acc[l]!
    return {
      trials: a.ins.length,
      promisedPieces: quantile(a.promised, 0.5) ?? 0,
      includedWithinPromise: a.ins.length ? a.ins.filter(Boolean).length / a.ins.length : null,
      targetInclusion: LEVEL_SETTINGS[l].targetInclusion,
      medianWaitPieces: quantile(a.waits, 0.5),
      medianOverpayment: quantile(a.over, 0.5),
    }
  }
  const ref = (s: Seen): PieceRef => ({ blockNumber: s.view.blockNumber, piece: s.view.piece })
  return {
    cadenceMs: newest.cadenceMs,
    piecesPerBlock: newest.pieces,
    piecesSeen: seen.filter((s) => s.trial).length,
    judgedPieces: first && last ? { from: ref(first), to: ref(last) } : null,
    spanSeconds: first && last ? Math.round((last.view.readAt - first.view.readAt) / 1000) : 0,
    levels: { low: level('low'), medium: level('medium'), high: level('high') },
  }
}

/** Where the suggestion at seen[i] got in: pieces waited and its overpayment; null when not within `horizon` pieces. */
function includedAt(
  l: Pick<LevelEstimate, 'maxFeePerGas' | 'maxPriorityFeePerGas'>,
  seen: readonly Seen[],
  i: number,
  horizon: number,
): { wait: number; overpayment: number | null } | null {
  const from = seen[i]!
  let cheapest: bigint | null = null
  for (const s of seen.slice(i + 1)) {
    const wait = s.slot - from.slot
    if (s.run !== from.run || wait > horizon) return null
    if (s.demand === null) continue
    const price = s.baseFee + s.demand
    if (cheapest === null || price < cheapest) cheapest = price
    if (l.maxFeePerGas < s.baseFee) continue
    const room = l.maxFeePerGas - s.baseFee
    const tip = room < l.maxPriorityFeePerGas ? room : l.maxPriorityFeePerGas
    if (tip < s.demand) continue
    const paid = s.baseFee + tip
    return { wait, overpayment: cheapest > 0n ? Number(paid - cheapest) / Number(cheapest) : null }
  }
  return null
}
