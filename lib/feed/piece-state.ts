import type { FeeWindow, PendingPieces, SeenPiece } from '../core/types'

/** A view older than this many pieces is not served (the reads failed or stopped); no run of demands spans such a gap. */
export const VIEW_MAX_PIECES = 3
/** The states of the pending block kept for the accuracy per piece: two minutes of Base's 200-ms pieces. */
export const HISTORY_PIECES = 600

export type PieceMode = 'unknown' | 'probing' | 'flashblocks' | 'none'

/**
 * What a piece tracker found, as it finds it: a new state of the pending block (its view, read at `at`), a read that
 * found the held state unchanged, or a new verdict. JSON-plain: it crosses from the tracker's thread to the feed's.
 */
export type PieceEvent =
  | { kind: 'piece'; view: PendingPieces; at: number }
  | { kind: 'unchanged'; blockNumber: number; at: number }
  | { kind: 'mode'; mode: PieceMode }

/** A chain's pending pieces as the feed serves them, wherever they are read (lib/feed/piece-tracker.ts, piece-worker.ts). */
export interface Pieces {
  /** Whether the chain was found to build its blocks in pieces. */
  readonly flashblocks: boolean
  /** The window with the newest piece laid over it (FeeWindow.pending) while that is current; the same object per piece. */
  overlay<W extends FeeWindow>(window: W): W
  /** The sealed window under a window overlay() returned (itself when not overlaid). */
  sealedOf<W extends FeeWindow>(window: W): W
  /** The states of the pending block followed (not the probe's), oldest first, at most HISTORY_PIECES. */
  seen(): readonly SeenPiece[]
  /** Reads when the chain is warm and a read is due (called on demand and on each new window). */
  wake(): void
  stop(): void
}

/** The feed's side of what the reads found: the newest view, the states followed, the verdict (from PieceEvents). */
export class PieceState {
  private mode: PieceMode = 'unknown'
  private current?: PendingPieces
  private readonly history: SeenPiece[] = []
  private overlaid?: { window: FeeWindow; view: PendingPieces; merged: FeeWindow }

  constructor(private readonly now: () => number) {}

  get flashblocks(): boolean {
    return this.mode === 'flashblocks'
  }

  apply(event: PieceEvent): void {
    if (event.kind === 'mode') {
      this.mode = event.mode
      if (event.mode === 'none') [this.current, this.history.length] = [undefined, 0]
    } else if (event.kind === 'piece') {
      this.current = event.view
      this.history.push({ view: event.view, lastReadAt: event.at })
      if (this.history.length > HISTORY_PIECES) this.history.splice(0, this.history.length - HISTORY_PIECES)
    } else {
      if (this.current) this.current = { ...this.current, readAt: event.at }
      const last = this.history.at(-1)
      if (last?.view.blockNumber === event.blockNumber) last.lastReadAt = event.at
    }
  }

  overlay<W extends FeeWindow>(window: W): W {
    const view = this.view(window.headNumber)
    if (!view) return window
    if (this.overlaid?.window !== window || this.overlaid.view !== view)
      this.overlaid = { window, view, merged: { ...window, pending: view } }
    return this.overlaid.merged as W
  }

  sealedOf<W extends FeeWindow>(window: W): W {
    return this.overlaid?.merged === window ? (this.overlaid.window as W) : window
  }

  seen(): readonly SeenPiece[] {
    return this.history
  }

  private view(headNumber: number): PendingPieces | undefined {
    const v = this.current
    // the pieces of a block that just sealed stand until the next block's first piece is read
    if (this.mode !== 'flashblocks' || !v || v.blockNumber < headNumber) return undefined
    return this.now() - v.readAt <= VIEW_MAX_PIECES * v.cadenceMs ? v : undefined
  }
}
