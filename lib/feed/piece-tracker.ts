import 'server-only'
import type { FeeWindow, PendingPieces } from '../core/types'
import { CROWDED_DEMAND_PIECES, crowdedAfter, gasPerPiece, pieceDemand, piecesPerBlock, quietPieces } from '../core/fee-math/flashblocks'
import type { CrowdedDemand } from '../core/fee-math/flashblocks'
import type { PendingBlockRead } from '../upstream/read-pending'
import { HISTORY_PIECES, PieceState, VIEW_MAX_PIECES, type PieceEvent, type PieceMode, type Pieces } from './piece-state'

/**
 * A chain's pending pieces (Flashblocks): whether its node's `pending` block is built in pieces, their cadence, and
 * the newest piece, read once per piece while the chain is warm. docs/estimator.md, "Flashblocks", says how.
 */

/** Only chains whose blocks come at least this often are probed: pieces split a block into sub-second parts. */
export const MAX_PROBED_INTERVAL_MS = 4_000
/** A probe reads `pending` this many times per block interval, over PROBE_INTERVALS intervals. */
const PROBE_READS_PER_INTERVAL = 40
const PROBE_INTERVALS = 3
/** How long a verdict stands before the chain is probed again (its cadence measured again), ms. */
const REPROBE_MS = 10 * 60_000
/** A probe that got fewer reads than this share of those planned (a busy machine or node) tells nothing: tried again soon. */
const MIN_PROBE_READ_SHARE = 0.5
/** How soon an inconclusive probe is tried again, in probes' lengths; after MAX_RETRIES in a row, after REPROBE_MS. */
const RETRY_PROBES = 2
const MAX_RETRIES = 3
/** Pieces come in steps with plateaus between: the median step is at least this many probe spacings. */
const MIN_STEP_SPACINGS = 2.5
/** A block in pieces grows over at least half its interval, and shows at least this many states. */
const MIN_STATES_PER_BLOCK = 3
/** Blocks of a probe that must look built in pieces. */
const MIN_PIECED_BLOCKS = 2
/** The recent pieces whose demands a view carries (pieceTip's quantile): four seconds of Base's 200-ms pieces. */
const RECENT_DEMAND_PIECES = 20
/** Blocks in a row without growth within them end the flashblocks verdict. */
const MAX_FLAT_BLOCKS = 3

export type PieceTrackerParts = {
  read: () => Promise<PendingBlockRead>
  /** The sealed head and block interval the feed holds. */
  sealed: () => Pick<FeeWindow, 'headNumber' | 'blockIntervalMs'> | undefined
  /** Whether anyone asks (a request within the warm period, or a subscriber). */
  warm: () => boolean
  /** The chain's published piece interval, ms (PUBLISHED_PIECE_MS), taken when the measured one is near it. */
  publishedPieceMs?: number
  /** Called when a newer piece is seen. */
  onPiece: () => void
  now?: () => number
  /** Told each event as it is taken (the worker passes them to the feed's thread: lib/feed/piece-worker.ts). */
  emit?: (event: PieceEvent) => void
}

type BlockSeen = {
  number: number
  hashes: string[]
  gasUsed: string
  gasLimit: string
  states: number
  firstSeenAt: number
  firstHadUserTxs: boolean
  newest: PendingPieces['newest']
  lastChangeAt: number
  readAt: number
}

/** `deposited`: the blocks whose `pending` opened with an OP-stack deposit (flashblocks' piece 0). */
type Probe = { until: number; spacingMs: number; blocks: Map<number, number[]>; deposited: Set<number>; reads: number }

/** The median of numbers (the upper one of an even count). */
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0

/** The mean of the middle half of numbers (the interquartile mean). */
function middleMean(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b)
  const middle = sorted.slice(Math.floor(sorted.length / 4), Math.ceil((3 * sorted.length) / 4))
  return middle.reduce((a, b) => a + b, 0) / Math.max(1, middle.length)
}

/** Whether `next` extends `prev`'s transactions, in order. */
const extendsPrefix = (prev: readonly string[], next: readonly string[]) => prev.every((h, i) => next[i] === h)

export class PieceTracker implements Pieces {
  private mode: PieceMode = 'unknown'
  private probeAfter = 0
  private probe?: Probe
  private retries = 0
  private cadenceMs = 0
  private pieces = 0
  private phaseMs = 0
  private block?: BlockSeen
  private flatBlocks = 0
  /** Reads in a row whose pending block was no newer than the sealed head. */
  private latestReads = 0
  /** Whether the last read in step with the pieces found nothing new: the next looks half a piece later, and the phase follows. */
  private missed = false
  private timer?: ReturnType<typeof setTimeout>
  private reading = false
  private readonly now: () => number
  /** What the reads found, as served (the same events go to parts.emit). */
  private readonly state: PieceState

  constructor(private readonly parts: PieceTrackerParts) {
    this.now = parts.now ?? (() => Date.now())
    this.state = new PieceState(this.now)
  }

  get flashblocks(): boolean {
    return this.state.flashblocks
  }

  overlay<W extends FeeWindow>(window: W): W {
    return this.state.overlay(window)
  }

  seen() {
    return this.state.seen()
  }

  sealedOf<W extends FeeWindow>(window: W): W {
    return this.state.sealedOf(window)
  }

  wake(): void {
    if (this.timer || this.reading || !this.parts.warm()) return
    this.schedule(this.nextAt())
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
  }

  /** The full states' demands the views carry (crowdedAfter), kept as each state is followed. */
  private crowded: CrowdedDemand[] = []

  private emit(event: PieceEvent): void {
    this.state.apply(event)
    this.parts.emit?.(event)
  }

  private setMode(mode: PieceMode): void {
    this.mode = mode
    this.emit({ kind: 'mode', mode })
  }

  /** When the next read is due: the probe's spacing, the next piece on the measured grid, or none (undefined). */
  private nextAt(): number | undefined {
    const now = this.now()
    const sealed = this.parts.sealed()
    if (this.mode === 'probing' && this.probe) return now + this.probe.spacingMs
    if (this.mode === 'flashblocks') {
      const c = this.cadenceMs
      if (this.missed) return now + c / 2
      // the next grid point past now, a sixteenth of a piece after the pieces' phase
      // the first grid point at least a quarter of a piece ahead, a sixteenth of a piece after the pieces' phase
      const k = Math.floor((now + c / 4 - this.phaseMs - c / 16) / c) + 1
      return this.phaseMs + k * c + c / 16
    }
    if (!sealed || sealed.blockIntervalMs > MAX_PROBED_INTERVAL_MS || now < this.probeAfter) return undefined
    this.setMode('probing')
    const spacingMs = Math.max(10, sealed.blockIntervalMs / PROBE_READS_PER_INTERVAL)
    this.probe = { until: now + PROBE_INTERVALS * sealed.blockIntervalMs, spacingMs, blocks: new Map(), deposited: new Set(), reads: 0 }
    this.block = undefined
    return now
  }

  private schedule(at: number | undefined): void {
    if (at === undefined) return
    this.timer = setTimeout(() => void this.tick(), Math.max(0, at - this.now()))
    this.timer.unref?.()
  }

  private async tick(): Promise<void> {
    this.timer = undefined
    if (!this.parts.warm()) return
    this.reading = true
    if (this.probe) this.probe.reads++
    try {
      this.take(await this.parts.read())
    } catch {
      // a failed read leaves the view to age out; the next piece's read tries again
    } finally {
      this.reading = false
    }
    if (this.mode === 'probing' && this.probe && this.now() >= this.probe.until) this.conclude(this.probe)
    if (this.parts.warm()) this.schedule(this.nextAt())
  }

  /** Takes one read of `pending`: a new block, a new piece of the held one, or nothing new. */
  private take(read: PendingBlockRead): void {
    const sealed = this.parts.sealed()
    // a node whose pending block is its latest builds none; one such read can be a race with the block's seal
    if (sealed && read.number <= sealed.headNumber) {
      if (++this.latestReads > PROBE_READS_PER_INTERVAL) this.settle('none')
      return
    }
    this.latestReads = 0
    if (read.deposit) this.probe?.deposited.add(read.number)
    const hashes = read.txs.map((t) => t.hash)
    const prev = this.block
    // an answer that overtook a newer one
    if (prev && read.number < prev.number) return
    const at = read.readAt
    if (!prev || read.number !== prev.number) {
      if (prev && this.mode === 'flashblocks') this.flatBlocks = prev.states > 1 ? 0 : this.flatBlocks + 1
      if (this.flatBlocks >= MAX_FLAT_BLOCKS) return this.settle('none')
      this.block = {
        number: read.number,
        hashes,
        gasUsed: read.gasUsed,
        gasLimit: read.gasLimit,
        states: 1,
        firstSeenAt: at,
        firstHadUserTxs: hashes.length > 0,
        newest: byTip(read.txs),
        lastChangeAt: at,
        readAt: at,
      }
      this.changed(read.number, at)
      return
    }
    prev.readAt = at
    const grew = hashes.length > prev.hashes.length || BigInt(read.gasUsed) > BigInt(prev.gasUsed)
    if (!grew) {
      // a second look that also found nothing waits for the next piece on the grid
      this.missed = !this.missed
      this.emit({ kind: 'unchanged', blockNumber: read.number, at })
      return
    }
    const added = extendsPrefix(prev.hashes, hashes) ? read.txs.slice(prev.hashes.length) : read.txs
    Object.assign(prev, { hashes, gasUsed: read.gasUsed, states: prev.states + 1, newest: byTip(added), lastChangeAt: at })
    this.changed(read.number, at)
  }

  /** A new state of the pending block was seen at `at`. */
  private changed(number: number, at: number): void {
    if (this.mode === 'probing' && this.probe) {
      const times = this.probe.blocks.get(number) ?? []
      times.push(at)
      this.probe.blocks.set(number, times)
      return
    }
    if (this.mode !== 'flashblocks' || !this.block) return
    // a piece the grid's look missed and the half-step look found came between them: the grid moves there
    if (this.missed) this.phaseMs = (at - this.cadenceMs / 4) % this.cadenceMs
    this.missed = false
    this.emit({ kind: 'piece', view: this.viewOf(this.block), at })
    this.parts.onPiece()
  }

  /** A new state's view (a full one joins the crowded demands). */
  private viewOf(b: BlockSeen): PendingPieces {
    const partial = { gasLimit: b.gasLimit, pieces: this.pieces }
    const perPiece = gasPerPiece(partial)
    // user pieces count from 1; the cumulative rule bounds the gas of piece j by j · floor(L/N)
    const counted = b.states - 1 + (b.firstHadUserTxs ? 1 : 0)
    const byGas = perPiece > 0n ? Number((BigInt(b.gasUsed) + perPiece - 1n) / perPiece) : 0
    const view = {
      blockNumber: b.number,
      piece: Math.min(this.pieces, Math.max(counted, byGas)),
      pieces: this.pieces,
      cadenceMs: this.cadenceMs,
      gasLimit: b.gasLimit,
      gasUsed: b.gasUsed,
      newest: b.newest,
      readAt: b.readAt,
    }
    this.crowded = crowdedAfter(this.crowded, view, CROWDED_DEMAND_PIECES, HISTORY_PIECES * this.cadenceMs)
    return { ...view, recentDemands: this.recentDemands(view), crowdedDemands: this.crowded.map((c) => c.demand) }
  }

  /**
   * What the recent pieces demanded (pieceDemand, 0 for room), oldest first, ending with `view`'s: each followed state's
   * with user transactions, and a 0 for each piece the reads found unchanged after one; none from before a gap of
   * VIEW_MAX_PIECES without reads.
   */
  private recentDemands(view: PendingPieces): string[] {
    const demandOf = (v: PendingPieces) => (v.newest.length ? [pieceDemand(v, 0n)] : [])
    const out = demandOf(view)
    const history = this.state.seen()
    let next: PendingPieces = view
    for (let i = history.length - 1; i >= 0 && out.length < RECENT_DEMAND_PIECES; i--) {
      const { view: v, lastReadAt } = history[i]!
      const c = v.cadenceMs
      if (next.readAt - lastReadAt > VIEW_MAX_PIECES * c) break
      for (let q = quietPieces(v.readAt, lastReadAt, c, next.readAt); q > 0; q--) out.push(0n)
      out.push(...demandOf(v))
      next = v
    }
    return out.slice(0, RECENT_DEMAND_PIECES).reverse().map(String)
  }

  /**
   * The probe's verdict: pieces when at least MIN_PIECED_BLOCKS blocks grew in steps (MIN_STATES_PER_BLOCK states
   * over at least half the interval, the median step MIN_STEP_SPACINGS probe spacings or more: a pool filling as
   * transactions arrive grows at nearly every read, or all at once after a block). A probe whose reads came too
   * sparse decides nothing: the chain is probed again after RETRY_PROBES probes' lengths, not REPROBE_MS.
   */
  private conclude(probe: Probe): void {
    const interval = this.parts.sealed()?.blockIntervalMs ?? 0
    const gaps: number[] = []
    let pieced = 0
    for (const [number, times] of probe.blocks) {
      // Flashblocks are the OP stack's: each block's piece 0 holds its deposits. A pool that fills in steps (a
      // devnet's steady traffic) can look like pieces, but its pending block opens with no deposit.
      if (!probe.deposited.has(number) || times.length < MIN_STATES_PER_BLOCK) continue
      const steps = times.slice(1).map((t, i) => t - times[i]!)
      if (times.at(-1)! - times[0]! < interval / 2 || median(steps) < MIN_STEP_SPACINGS * probe.spacingMs) continue
      pieced++
      gaps.push(...steps)
    }
    // reads too sparse to see the steps (each as slow as a piece or more) can neither find pieces nor measure them
    const sparse = probe.reads < MIN_PROBE_READ_SHARE * PROBE_READS_PER_INTERVAL * PROBE_INTERVALS
    this.retries = sparse ? this.retries + 1 : 0
    if (sparse && this.retries <= MAX_RETRIES) return this.settle('none', RETRY_PROBES * PROBE_INTERVALS * interval)
    if (sparse) this.retries = 0
    if (pieced < MIN_PIECED_BLOCKS || interval <= 0) return this.settle('none')
    // the cadence is the steps' middle half: a late read lengthens one step and shortens the next, a missed piece
    // doubles one, and a block whose first piece is seen late loses part of its spread, none of which moves it
    this.pieces = piecesPerBlock(interval, middleMean(gaps), this.parts.publishedPieceMs)
    this.cadenceMs = interval / this.pieces
    this.phaseMs = ((this.block?.lastChangeAt ?? this.now()) - probe.spacingMs / 2) % this.cadenceMs
    this.settle('flashblocks')
    if (this.block) this.changed(this.block.number, this.block.lastChangeAt)
  }

  private settle(mode: 'none' | 'flashblocks', standsMs = REPROBE_MS): void {
    this.setMode(mode)
    this.probe = undefined
    this.flatBlocks = 0
    this.latestReads = 0
    this.probeAfter = this.now() + standsMs
    if (mode === 'none') this.crowded = []
  }
}

/** Transactions' effective tips and gas limits, tips ascending. */
function byTip(txs: readonly { tip: string; gas: string }[]): PendingPieces['newest'] {
  return txs
    .map(({ tip, gas }) => ({ tip, gas }))
    .sort((a, b) => (BigInt(a.tip) < BigInt(b.tip) ? -1 : BigInt(a.tip) > BigInt(b.tip) ? 1 : 0))
}
