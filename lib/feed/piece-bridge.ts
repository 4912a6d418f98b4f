import type { FeeWindow, SeenPiece } from '../core/types'
import type { PendingBlockRead } from '../upstream/read-pending'
import { PieceState, type PieceEvent, type Pieces } from './piece-state'
import { MAX_PROBED_INTERVAL_MS, PieceTracker } from './piece-tracker'

/**
 * The pending pieces read on another thread (lib/feed/piece-worker.ts): its event loop reads `pending` once per piece
 * however busy the requests keep the feed's, and the feed takes what it found (PieceEvents) as they come.
 */

/**
 * What a feed tells the reading thread of its chain: its nodes, its sealed head, until when it is warm, or that it
 * stopped (its tracker is dropped). `feedId` names the feed: a chain served from other nodes gets a new feed and tracker.
 */
export type PieceTold = {
  feedId: number
  rpcUrls: readonly string[]
  timeoutMs: number
  /** The chain's published piece interval, ms (PieceTrackerParts.publishedPieceMs). */
  publishedPieceMs?: number
  sealed?: Pick<FeeWindow, 'headNumber' | 'blockIntervalMs'>
  /** ms since the epoch; Infinity while someone listens. */
  warmUntil: number
  stopped?: true
}
export type PieceHeard = { feedId: number; event: PieceEvent }

/** One end of a message channel (a worker's parentPort, a Worker, a MessagePort). */
export type PiecePort<Out, In> = { postMessage(message: Out): void; on(kind: 'message', listener: (message: In) => void): unknown }

/** The reading thread's side: a tracker per feed told of, each event passed back. */
export function hostPieces(port: PiecePort<PieceHeard, PieceTold>, read: (told: PieceTold) => Promise<PendingBlockRead>): void {
  const chains = new Map<number, { told: PieceTold; tracker: PieceTracker }>()
  port.on('message', (told) => {
    let chain = chains.get(told.feedId)
    if (told.stopped) {
      // cold, so that a read in flight does not schedule the next
      if (chain) chain.told = { ...chain.told, warmUntil: 0 }
      chain?.tracker.stop()
      chains.delete(told.feedId)
      return
    }
    if (chain) chain.told = told
    else {
      const entry: { told: PieceTold; tracker?: PieceTracker } = { told }
      entry.tracker = new PieceTracker({
        read: () => read(entry.told),
        sealed: () => entry.told.sealed,
        warm: () => Date.now() < entry.told.warmUntil,
        publishedPieceMs: told.publishedPieceMs,
        onPiece: () => {},
        // a stopped tracker's last read may still come back: its feed is gone, so is its event
        emit: (event) => chains.get(told.feedId) === entry && port.postMessage({ feedId: told.feedId, event }),
      })
      chain = entry as { told: PieceTold; tracker: PieceTracker }
      chains.set(told.feedId, chain)
    }
    chain.tracker.wake()
  })
}

/**
 * The feed's way to the reading thread: `tell` says whether the thread took the message (none while a failed one
 * waits to be started again); `generation` changes when the thread was started anew (it knows nothing).
 */
export type PieceLink = {
  tell(told: PieceTold): boolean
  /** A new feed's id, its events to `listener` until closed. */
  open(listener: (event: PieceEvent) => void): number
  close(feedId: number): void
  readonly generation: number
}

/** What the feed gives its pieces. */
export type PieceHooks = {
  sealed: () => Pick<FeeWindow, 'headNumber' | 'blockIntervalMs'> | undefined
  /** Until when the feed is warm (Infinity while someone listens). */
  warmUntil: () => number
  onPiece: () => void
  now?: () => number
}

/** What the feed gives whoever follows its pieces (this thread's PieceTracker or RemotePieces). */
export type FeedPieceHooks = Required<PieceHooks> & { warm: () => boolean }

/** A warm period moved by less than this is not told again (a request's keepWarm moves it on every request), ms. */
const TELL_WARM_STEP_MS = 1_000

/** The feed's side: the state the reading thread's events build, and what the feed's clock tells it. */
export class RemotePieces implements Pieces {
  private readonly state: PieceState
  private told?: { generation: number; head?: number; intervalMs?: number; warmUntil: number }
  private readonly feedId: number
  private readonly now: () => number

  constructor(
    private readonly source: Pick<PieceTold, 'rpcUrls' | 'timeoutMs' | 'publishedPieceMs'>,
    private readonly hooks: PieceHooks,
    private readonly link: PieceLink,
  ) {
    this.now = hooks.now ?? (() => Date.now())
    this.state = new PieceState(this.now)
    this.feedId = link.open((event) => {
      this.state.apply(event)
      if (event.kind === 'piece') hooks.onPiece()
    })
  }

  get flashblocks(): boolean {
    return this.state.flashblocks
  }

  overlay<W extends FeeWindow>(window: W): W {
    return this.state.overlay(window)
  }

  sealedOf<W extends FeeWindow>(window: W): W {
    return this.state.sealedOf(window)
  }

  seen(): readonly SeenPiece[] {
    return this.state.seen()
  }

  wake(): void {
    const sealed = this.hooks.sealed()
    const warmUntil = this.hooks.warmUntil()
    const t = this.told
    // no thread is started for a cold feed, or a chain not probed (its blocks come too seldom to be built in pieces)
    if (!t && (warmUntil <= this.now() || !(sealed && sealed.blockIntervalMs <= MAX_PROBED_INTERVAL_MS))) return
    const same =
      t?.generation === this.link.generation &&
      t.head === sealed?.headNumber &&
      t.intervalMs === sealed?.blockIntervalMs &&
      warmUntil >= t.warmUntil &&
      (warmUntil === t.warmUntil || warmUntil - t.warmUntil < TELL_WARM_STEP_MS)
    if (!same) this.tell(sealed, warmUntil)
  }

  stop(): void {
    // a thread started since the last tell never knew this feed
    if (this.told?.generation === this.link.generation)
      this.link.tell({ feedId: this.feedId, rpcUrls: [], timeoutMs: 0, warmUntil: 0, stopped: true })
    this.told = undefined
    this.link.close(this.feedId)
  }

  private tell(sealed: PieceTold['sealed'], warmUntil: number): void {
    const at = sealed && { headNumber: sealed.headNumber, blockIntervalMs: sealed.blockIntervalMs }
    const { rpcUrls, timeoutMs, publishedPieceMs } = this.source
    // a message the thread did not take is told again on the next wake
    if (this.link.tell({ feedId: this.feedId, rpcUrls: [...rpcUrls], timeoutMs, publishedPieceMs, sealed: at, warmUntil }))
      this.told = { generation: this.link.generation, head: sealed?.headNumber, intervalMs: sealed?.blockIntervalMs, warmUntil }
  }
}
