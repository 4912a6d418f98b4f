import type { FeeWindow, SeenPiece } from '../core/types'
import type { PendingBlockRead } from '../upstream/read-pending'
import { PieceState, type PieceEvent, type Pieces } from './piece-state'
import { MAX_PROBED_INTERVAL_MS, PieceTracker } from './piece-tracker'

/**
 * The pending pieces read on another thread (lib/feed/piece-worker.ts): its event loop reads `pending` once per piece
 * however busy the requests keep the feed's, and the feed takes what it found (PieceEvents) as they come.
 */

/** What the feed tells the reading thread about a chain: its nodes, its sealed head, and until when it is warm. */
export type PieceTold = {
  chainId: number
  rpcUrls: readonly string[]
  timeoutMs: number
  sealed?: Pick<FeeWindow, 'headNumber' | 'blockIntervalMs'>
  /** ms since the epoch; Infinity while someone listens, -Infinity once stopped. */
  warmUntil: number
}
export type PieceHeard = { chainId: number; event: PieceEvent }

/** One end of a message channel (a worker's parentPort, a Worker, a MessagePort). */
export type PiecePort<Out, In> = { postMessage(message: Out): void; on(kind: 'message', listener: (message: In) => void): unknown }

/** The reading thread's side: a tracker per chain told of, each event passed back. */
export function hostPieces(port: PiecePort<PieceHeard, PieceTold>, read: (told: PieceTold) => Promise<PendingBlockRead>): void {
  const chains = new Map<number, { told: PieceTold; tracker: PieceTracker }>()
  port.on('message', (told) => {
    let chain = chains.get(told.chainId)
    if (chain) chain.told = told
    else {
      const entry: { told: PieceTold; tracker?: PieceTracker } = { told }
      entry.tracker = new PieceTracker({
        read: () => read(entry.told),
        sealed: () => entry.told.sealed,
        warm: () => Date.now() < entry.told.warmUntil,
        onPiece: () => {},
        emit: (event) => port.postMessage({ chainId: told.chainId, event }),
      })
      chain = entry as { told: PieceTold; tracker: PieceTracker }
      chains.set(told.chainId, chain)
    }
    if (told.warmUntil === Number.NEGATIVE_INFINITY) chain.tracker.stop()
    else chain.tracker.wake()
  })
}

/** The feed's way to the reading thread: `generation` changes when the thread was started anew (it knows nothing). */
export type PieceLink = {
  tell(told: PieceTold): void
  listen(chainId: number, listener: (event: PieceEvent) => void): void
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

  constructor(
    private readonly source: Pick<PieceTold, 'chainId' | 'rpcUrls' | 'timeoutMs'>,
    private readonly hooks: PieceHooks,
    private readonly link: PieceLink,
  ) {
    this.state = new PieceState(hooks.now ?? (() => Date.now()))
    link.listen(source.chainId, (event) => {
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
    // no thread is started for a chain that is not probed (its blocks come too seldom to be built in pieces)
    if (!t && !(sealed && sealed.blockIntervalMs <= MAX_PROBED_INTERVAL_MS)) return
    const same =
      t?.generation === this.link.generation &&
      t.head === sealed?.headNumber &&
      t.intervalMs === sealed?.blockIntervalMs &&
      warmUntil >= t.warmUntil &&
      (warmUntil === t.warmUntil || warmUntil - t.warmUntil < TELL_WARM_STEP_MS)
    if (!same) this.tell(sealed, warmUntil)
  }

  stop(): void {
    if (this.told) this.tell(this.hooks.sealed(), Number.NEGATIVE_INFINITY)
  }

  private tell(sealed: PieceTold['sealed'], warmUntil: number): void {
    this.told = { generation: this.link.generation, head: sealed?.headNumber, intervalMs: sealed?.blockIntervalMs, warmUntil }
    const at = sealed && { headNumber: sealed.headNumber, blockIntervalMs: sealed.blockIntervalMs }
    this.link.tell({ ...this.source, rpcUrls: [...this.source.rpcUrls], sealed: at, warmUntil })
  }
}
