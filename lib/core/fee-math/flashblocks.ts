import type { LevelEstimate, PendingPieces, Urgency } from '../types'
import { IGNORE_TIP_WEI, inclusionTip, inclusionTipBlocks, LEVEL_SETTINGS, type InclusionTarget } from './estimator'
import { maxOf } from './statistics'

/**
 * Flashblocks (ethereum-optimism/specs protocol/flashblocks.md): the sequencer streams each block in pieces, and
 * piece j may bring the block's cumulative gas to j · floor(L / N), counting each transaction's declared gas LIMIT
 * (op-rbuilder primitives/reth/execution.rs; base/base crates/builder/core/src/flashblocks/payload.rs). Tips
 * compete within a piece, highest first; a later piece never goes before an earlier one. Pure.
 */

/** A level's promise in pieces, as LEVEL_SETTINGS promises blocks: in within this many pieces. */
export const LEVEL_PIECES: Record<Urgency, number> = { low: 6, medium: 3, high: 2 }

/** The recent full pieces' demands a view carries (crowdedDemands): as many as high's 99% quantile over runs of 2 needs. */
export const CROWDED_DEMAND_PIECES = inclusionTipBlocks(
  { targetInclusion: LEVEL_SETTINGS.high.targetInclusion, waitBlocks: LEVEL_PIECES.high },
  1,
  0,
  Infinity,
)

/** The default transaction the levels are sized for (a transfer's gas). */
const TRANSFER_GAS = 21_000n

/**
 * A piece is full when less room than this is left under its cumulative budget: a fifth of a piece (what large
 * transactions leave when the next one does not fit), at least a transfer. Unused budget carries forward, so a
 * chain with room is soon far below it.
 */
function fullSlack(perPiece: bigint): bigint {
  return maxOf(TRANSFER_GAS, perPiece / 5n)
}

/** The measured steps taken for a published piece interval: 5% under it to a fifth over (busy reads only lengthen steps). */
const PUBLISHED_STEP_BAND = { under: 0.95, over: 1.2 }

/**
 * Pieces per block from a probe's measured step between pieces: the interval over the step, rounded, at least 2; the
 * published interval (PUBLISHED_PIECE_MS) when the step is within PUBLISHED_STEP_BAND of it.
 * @example piecesPerBlock(2_000, 215, 200) // 10 (measured alone: 9)
 */
export function piecesPerBlock(intervalMs: number, stepMs: number, publishedPieceMs?: number): number {
  const near =
    publishedPieceMs !== undefined &&
    stepMs >= PUBLISHED_STEP_BAND.under * publishedPieceMs &&
    stepMs < PUBLISHED_STEP_BAND.over * publishedPieceMs
  return Math.max(2, Math.round(intervalMs / (near ? publishedPieceMs : stepMs)))
}

/** The gas one piece adds to the block's cumulative budget: floor(gasLimit / pieces). */
export function gasPerPiece(p: Pick<PendingPieces, 'gasLimit' | 'pieces'>): bigint {
  return BigInt(p.gasLimit) / BigInt(Math.max(1, p.pieces))
}

/** The block's cumulative gas budget after piece j: min(j · floor(L/N), L). */
export function pieceBudget(p: Pick<PendingPieces, 'gasLimit' | 'pieces'>, j: number): bigint {
  const budget = BigInt(j) * gasPerPiece(p)
  const limit = BigInt(p.gasLimit)
  return budget < limit ? budget : limit
}

/** Whether the pieces being built are full: the cumulative gas within fullSlack of the budget, so a newcomer must outbid. */
export function piecesFull(p: PendingPieces): boolean {
  if (p.piece < 1) return false
  return BigInt(p.gasUsed) + fullSlack(gasPerPiece(p)) >= pieceBudget(p, p.piece)
}

/**
 * How many pieces a transaction of `gas` (its declared limit) waits for one with room: 1 when the next piece takes
 * it; more when its limit is beyond the room the next pieces leave; past the block's last piece, the next block's
 * pieces from the first.
 * @example piecesUntilRoom({ piece: 3, pieces: 10, gasLimit: '400000000', gasUsed: '100000000', … }, 21_000n) // 1
 */
export function piecesUntilRoom(p: PendingPieces, gas: bigint): number {
  const used = BigInt(p.gasUsed)
  for (let j = p.piece + 1; j <= p.pieces; j++) {
    if (used + gas <= pieceBudget(p, j)) return j - p.piece
  }
  const perPiece = gasPerPiece(p)
  const fresh = perPiece > 0n ? Number((gas + perPiece - 1n) / perPiece) : 1
  return Math.max(0, p.pieces - p.piece) + Math.max(1, fresh)
}

/**
 * The tip (wei) that held `share` of the newest piece's gas, counted from the highest tip down: at 0.95 the lowest
 * tip that got in, leaving out the small transactions that only filled the gap the bulk left. null without any.
 */
export function marginalTip(p: Pick<PendingPieces, 'newest'>, share: number): bigint | null {
  const total = p.newest.reduce((sum, t) => sum + BigInt(t.gas), 0n)
  const want = (total * BigInt(Math.round(share * 1_000))) / 1_000n
  let held = 0n
  for (let i = p.newest.length - 1; i >= 0; i--) {
    held += BigInt(p.newest[i]!.gas)
    if (held >= want) return BigInt(p.newest[i]!.tip)
  }
  return p.newest.length ? BigInt(p.newest[0]!.tip) : null
}

/** The tip (wei) every level must beat while the pieces are full: the marginal tip of the newest piece; null when they have room. */
export function pieceTipToBeat(p: PendingPieces): bigint | null {
  return piecesFull(p) ? marginalTip(p, 0.95) : null
}

/**
 * A tip (wei) for the next piece while the pieces are full: above the newest piece's marginal tip, and for a high
 * promise (`high`: the level high, or a confidence of 90% and more) above the tip that held its first three quarters.
 * The floor while they have room.
 */
export function nextPieceTip(p: PendingPieces, floorTip: bigint, high: boolean): bigint {
  const toBeat = pieceTipToBeat(p)
  if (toBeat === null) return floorTip
  const quartile = high ? (marginalTip(p, 0.75) ?? toBeat) : toBeat
  return maxOf(maxOf(toBeat, quartile) + 1n, floorTip)
}

/**
 * The pieces after a followed state (read at `readAt`) that the reads found it unchanged, until `lastReadAt`: quiet
 * pieces, with room. Never as many as reach the next state (read at `nextReadAt`), which has a piece of its own.
 */
export function quietPieces(readAt: number, lastReadAt: number, cadenceMs: number, nextReadAt?: number): number {
  const quiet = Math.floor((lastReadAt - readAt) / cadenceMs + 1e-9)
  return Math.max(0, nextReadAt === undefined ? quiet : Math.min(quiet, Math.round((nextReadAt - readAt) / cadenceMs) - 1))
}

/**
 * What a piece demanded of a newcomer's tip (wei), by the lenient rule: a full piece the lowest real tip (> 2 wei) of
 * those it took, a piece with room the chain's minimum.
 */
export function pieceDemand(p: PendingPieces, minTip: bigint): bigint {
  if (!piecesFull(p)) return minTip
  const lowest = p.newest.map((t) => BigInt(t.tip)).find((t) => t > IGNORE_TIP_WEI) ?? 0n
  return lowest > minTip ? lowest : minTip
}

/**
 * Whether a newcomer must outbid now: the pieces being built are full, or the state read holds no user transaction
 * yet (a block's first piece: its system transactions only, which says nothing of room) and the piece before it was
 * full (its demand, the last of recentDemands, above 0).
 */
export function piecesCrowded(p: PendingPieces): boolean {
  return piecesFull(p) || (p.newest.length === 0 && BigInt(p.recentDemands?.at(-1) ?? 0) > 0n)
}

/**
 * The least tip (wei) of a high promise, room or not: a burst can fill the next pieces unannounced, so it beats the
 * target's inclusionTip over what the recent full pieces demanded (crowdedDemands); the floor when none was full.
 */
function highFloorTip(p: PendingPieces, floorTip: bigint, target: InclusionTarget): bigint {
  const crowded = (p.crowdedDemands ?? []).map(BigInt)
  return crowded.length ? maxOf(inclusionTip(crowded, target) + 1n, floorTip) : floorTip
}

/** A full state's demand (pieceDemand, wei) and when it was read. */
export type CrowdedDemand = { readAt: number; demand: string }

/**
 * The full states' demands once `view` is followed (oldest first, `view`'s last when it is full): `before`'s and
 * `view`'s, at most `max` of the newest, none read more than `maxAgeMs` before `view`.
 */
export function crowdedAfter(before: readonly CrowdedDemand[], view: PendingPieces, max: number, maxAgeMs: number): CrowdedDemand[] {
  const kept = before.filter((c) => view.readAt - c.readAt <= maxAgeMs)
  if (view.newest.length && piecesFull(view)) kept.push({ readAt: view.readAt, demand: String(pieceDemand(view, 0n)) })
  return kept.slice(-max)
}

/**
 * A tip (wei) that gets in within `target.waitBlocks` pieces as often as `target.targetInclusion` while the pieces are
 * crowded: nextPieceTip (a block's first piece: the last piece's demand + 1), and at least the estimator's inclusionTip
 * over the recent pieces' demands (a burst whose lowest tip moves from piece to piece beats a tip made on the newest
 * piece alone). The floor while they have room; for a high promise, highFloorTip in place of the floor.
 */
export function pieceTip(p: PendingPieces, floorTip: bigint, target: InclusionTarget, high: boolean): bigint {
  const floor = high ? highFloorTip(p, floorTip, target) : floorTip
  if (!piecesCrowded(p)) return floor
  const recent = (p.recentDemands ?? []).map(BigInt)
  const next = piecesFull(p) ? nextPieceTip(p, floor, high) : maxOf(recent.at(-1)! + 1n, floor)
  return recent.length ? maxOf(next, inclusionTip(recent, target)) : next
}

/**
 * A level's waits on a flashblocks chain, ms: from the next piece with room for `gas` to the level's promise in
 * pieces after it, at the measured cadence.
 */
export function pieceWaits(
  p: PendingPieces,
  level: Urgency,
  gas: bigint = TRANSFER_GAS,
): Pick<LevelEstimate, 'minWaitTimeMs' | 'maxWaitTimeMs'> {
  const first = piecesUntilRoom(p, gas)
  return {
    minWaitTimeMs: Math.round(first * p.cadenceMs),
    maxWaitTimeMs: Math.round((first - 1 + LEVEL_PIECES[level]) * p.cadenceMs),
  }
}

/**
 * The levels on a flashblocks chain, from the sealed blocks' (docs/api.md, "Flashblocks chains"): while the pieces are
 * full every tip is pieceTip's; while they have room low and medium are the floor and high highFloorTip's. Max fees
 * keep their headroom, waits are in pieces (pieceWaits). `floorTip` null: tips buy nothing, only the waits change.
 */
export function pieceLevels(
  levels: Record<Urgency, LevelEstimate>,
  p: PendingPieces,
  floorTip: bigint | null,
): Record<Urgency, LevelEstimate> {
  if (floorTip === null) {
    const waits = (level: Urgency) => ({ ...levels[level], ...pieceWaits(p, level) })
    return { low: waits('low'), medium: waits('medium'), high: waits('high') }
  }
  const out = {} as Record<Urgency, LevelEstimate>
  let floor = floorTip
  for (const level of ['low', 'medium', 'high'] as const) {
    const l = levels[level]
    const target = { targetInclusion: LEVEL_SETTINGS[level].targetInclusion, waitBlocks: LEVEL_PIECES[level] }
    const tip = pieceTip(p, floor, target, level === 'high')
    out[level] = { ...l, maxPriorityFeePerGas: tip, maxFeePerGas: l.maxFeePerGas - l.maxPriorityFeePerGas + tip, ...pieceWaits(p, level) }
    floor = tip
  }
  return out
}
