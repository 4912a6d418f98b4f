import 'server-only'
import type { ChainConfig } from '../chains/registry'
import { FRESH_PERIODS, periodOf } from '../core/contract/freshness'
import { ceilingAllowsAt, MAX_READS_PER_PERIOD } from './ceiling'
import type { FeedWindow } from './feed-window'
import { FeeMarketUnsupportedError, UpstreamUnavailableError } from '../core/contract/errors'
import { settledWithin, withDeadline } from '../runtime/deadline'
import { count } from '../metrics/registry'
import type { ReadFeeWindowParameters } from '../upstream/read-from-url'
import { WallPace } from './read-timing/wall-pace'
import { timedRead } from './timed-read'
import { nextRead } from './read-timing/next-read'
import { backoffMs, decide, headLagging, staleAt } from './rules'
import type { LoadResult, WindowStore } from './window-store'
import type { FeedSettings } from './feed-settings'
import type { Pieces } from './piece-state'
import type { FeedPieceHooks } from './piece-bridge'

/** A window as served: whether it is stale (a read failed or is late, or the head lags) and until when it is fresh. */
export type CachedFeeWindow = { window: FeedWindow; stale: boolean; freshUntil: number }

/** What a chain's feed is built from. */
export type ChainFeedParts = {
  settings: FeedSettings
  /** Where windows are held (lib/feed/window-store.ts). */
  store: WindowStore
  /** The upstream read (lib/upstream/read-fee-window.ts readFeeWindow). */
  read: (params: ReadFeeWindowParameters) => Promise<FeedWindow>
  /** The clock, ms since the epoch (Date.now). */
  now?: () => number
  /** Keeps a read started by a request alive past the answer (Next's after() inside a request). */
  behind?: (task: Promise<unknown>) => void
  /** Whether loads are counted in gas_api_shared_reads_total by their source (with REDIS_URL). */
  countSources?: boolean
  /** The read timing (lib/feed/read-timing/next-read.ts nextRead; another plan in tests of the ceiling). */
  plan?: typeof nextRead
  /** Who follows the node's `pending` block (lib/feed/feeds.ts): a chain built in pieces is followed piece by piece. */
  followPieces?: (hooks: FeedPieceHooks) => Pieces
}

/**
 * One chain's feed: the window held, the read under way, the last failure, the freshness decision (rules.ts
 * decide), the read timing (read-timing/next-read.ts), the warm period, the read ceiling and publishing.
 * How a request, the warm timer and the ceiling play together: docs/development.md, "The chain feed".
 */
export class ChainFeed {
  private settings: FeedSettings
  private readonly now: () => number
  private failure?: { error: Error; until: number }
  private reading?: { promise: Promise<FeedWindow>; startedAt: number }
  /** How long the last upstream read took, ms. */
  private lastReadMs?: number
  /** When the newest upstream reads started (this process's, and the group's it was told of), ms since the epoch. */
  private starts: number[] = []
  /** After a load that brought no newer window (the group's ceiling, a slow reader elsewhere), no try before this. */
  private turnedAwayUntil = Number.NEGATIVE_INFINITY
  /** The chain's pace on the wall clock, from when this process first held each head. */
  private readonly wallPace = new WallPace()
  private warmUntil = Number.NEGATIVE_INFINITY
  private readonly listeners = new Set<() => void>()
  private timer?: { handle: ReturnType<typeof setTimeout>; at: number }
  /** The chain's pending pieces (Flashblocks), laid over the window served while current. */
  readonly pieces?: Pieces

  constructor(
    readonly chain: ChainConfig,
    private readonly parts: ChainFeedParts,
  ) {
    this.settings = parts.settings
    this.now = parts.now ?? (() => Date.now())
    this.pieces = parts.followPieces?.({
      sealed: () => this.held(),
      warm: () => this.warm(),
      warmUntil: () => (this.listeners.size > 0 ? Number.POSITIVE_INFINITY : this.warmUntil),
      onPiece: () => this.notify(),
      now: this.now,
    })
  }

  /** New settings (the configuration changed); the state is kept. */
  configure(settings: FeedSettings): void {
    this.settings = settings
  }

  /** The window this process holds, without reading. */
  held(): FeedWindow | undefined {
    return this.parts.store.held()
  }

  /** The chain's period: its block interval within [1 s, 60 s], ms. */
  periodMs(window = this.held()): number {
    return periodOf(window?.blockIntervalMs ?? this.chain.nominalBlockTimeMs ?? 2_000)
  }

  /**
   * The read ceiling's period, ms: the chain's period, or its blocks' pace on the wall clock when that is slower
   * (a devnet whose stamps advance 1 s per 2-s block): the median wall time per block of the last heads taken.
   */
  ceilingPeriodMs(window = this.held()): number {
    const period = this.periodMs(window)
    const pace = this.wallPace.ms
    return pace === undefined ? period : Math.max(period, periodOf(pace))
  }

  /**
   * Until when a window is fresh: its next read, never later than FRESH_PERIODS periods (ceilingPeriodMs) after
   * it was read (an instance whose clock runs ahead); one period when it carries no next read.
   */
  freshUntil(window: FeedWindow): number {
    const period = this.ceilingPeriodMs(window)
    return window.nextReadAt === undefined
      ? window.fetchedAt + period
      : Math.min(window.nextReadAt, window.fetchedAt + FRESH_PERIODS * period)
  }

  /**
   * The chain's window for a request (see the class comment). `countLookup: false` leaves the lookup
   * out of gas_api_cache_total (a stream hub's looks are not requests); `warm: false` does not count
   * as demand (a readiness probe must not keep every chain read).
   * @throws UpstreamUnavailableError, UpstreamBadResponseError, FeeMarketUnsupportedError when no window young enough can be served
   */
  async get(opts: { countLookup?: boolean; warm?: boolean } = {}): Promise<CachedFeeWindow> {
    const tally = (outcome: string) => {
      if (opts.countLookup !== false) count('gas_api_cache_total', { chain: this.chain.id, outcome })
    }
    const now = this.now()
    if (opts.warm !== false) this.keepWarm(now)
    const window = this.held()
    const decision = decide(
      {
        fetchedAt: window?.fetchedAt,
        freshUntil: window && this.freshUntil(window),
        failure: this.failure,
        readingSince: this.reading?.startedAt,
        lastReadMs: this.lastReadMs,
      },
      now,
      // staleness counts periods of the chain's own pace: on a devnet whose stamps run slow, the wall clock's
      { periodMs: this.ceilingPeriodMs(window), maxStaleMs: this.settings.maxStaleMs, waitMs: this.settings.waitMs },
    )
    switch (decision.kind) {
      case 'hit':
        tally('hit')
        return this.served(window!, false)
      case 'serve': {
        const read = decision.read ? this.startRead() : this.reading?.promise
        if (read && decision.read) this.parts.behind?.(read.catch(() => {}))
        if (read && decision.waitUntil !== undefined) {
          const got = await settledWithin(read, decision.waitUntil - this.now())
          if (got && got.fetchedAt > window!.fetchedAt) {
            tally('waited')
            return this.served(got, false)
          }
        }
        tally('grace')
        return this.served(window!, decision.stale || this.failure !== undefined)
      }
      case 'failing':
        tally('failing')
        throw this.failure!.error
      case 'wait':
        tally('miss')
        return this.readForRequest()
    }
  }

  /** Calls `listener` whenever the feed takes a newer window or a read fails. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener)
    this.arm()
    return () => {
      if (!this.listeners.delete(listener)) return
      this.keepWarm(this.now())
    }
  }

  /** Whether the feed reads on its own now (a request or subscriber within the warm period). */
  warm(now = this.now()): boolean {
    return this.listeners.size > 0 || now < this.warmUntil
  }

  /** Stops the feed's timer (tests, a reconfigured chain). */
  stop(): void {
    this.warmUntil = Number.NEGATIVE_INFINITY
    this.listeners.clear()
    this.clearTimer()
    this.pieces?.stop()
  }

  private served(window: FeedWindow, stale: boolean): CachedFeeWindow {
    // a lagging head is served, but never as current data
    return {
      window: this.pieces ? this.pieces.overlay(window) : window,
      stale: stale || headLagging(window, this.now(), this.settings.maxHeadAgeMs),
      freshUntil: this.freshUntil(window),
    }
  }

  private notify(): void {
    for (const listener of this.listeners) {
      try {
        listener()
      } catch {
        // a listener's failure is its own
      }
    }
  }

  private keepWarm(now: number): void {
    if (this.settings.warmMs > 0) this.warmUntil = Math.max(this.warmUntil, now + this.settings.warmMs)
    this.arm()
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer.handle)
    this.timer = undefined
  }

  /** Arms the timer for the next due read while warm: past the next read, a failure's back-off, the ceiling, a turned-away load. */
  private arm(): void {
    const now = this.now()
    // the pieces are told when the feed goes cold too (their reads may run on another thread)
    this.pieces?.wake()
    if (!this.warm(now)) return this.clearTimer()
    if (this.reading) return
    const window = this.held()
    let at = window ? this.freshUntil(window) : now
    if (this.failure) at = Math.max(at, this.failure.until)
    at = Math.max(at, ceilingAllowsAt(this.starts, this.ceilingPeriodMs(window)), this.turnedAwayUntil)
    if (this.listeners.size === 0 && at >= this.warmUntil) return this.clearTimer()
    if (this.timer?.at === at) return
    this.clearTimer()
    const handle = setTimeout(
      () => {
        this.timer = undefined
        if (!this.warm(this.now())) return
        // a read refused by the ceiling is not started: arm again for when it allows one
        if (!this.startRead()) this.arm()
      },
      Math.max(0, at - now),
    )
    handle.unref?.()
    this.timer = { handle, at }
  }

  /** Starts a read through the store (or returns the one under way); undefined when the read ceiling allows none now. */
  private startRead(): Promise<FeedWindow> | undefined {
    if (this.reading) return this.reading.promise
    const startedAt = this.now()
    if (ceilingAllowsAt(this.starts, this.ceilingPeriodMs()) > startedAt) return undefined
    const before = this.held()
    const promise = this.parts.store
      .load(
        // a window another layer holds is taken when it is newer than ours, from a node not behind
        // ours (another instance's node may lag), and fresh
        (w) => w.fetchedAt > (before?.fetchedAt ?? 0) && w.headNumber >= (before?.headNumber ?? 0) && this.now() < this.freshUntil(w),
        (published) => this.readUpstream(published),
        { periodMs: this.periodMs(), ceilingPeriodMs: this.ceilingPeriodMs() },
      )
      .then(
        ({ window, source, groupStarts }: LoadResult) => {
          if (this.parts.countSources) count('gas_api_shared_reads_total', { chain: this.chain.id, source })
          // turned away by the group's ceiling: its reads count here too (another clock never puts one ahead of now)
          if (groupStarts) this.noteStarts(groupStarts.map((t) => Math.min(t, this.now())))
          this.wallPace.note(window.headNumber, this.now())
          // the window held, handed back under the ceiling, is no news and ends no failure; a newer one is, and does
          if (window.fetchedAt <= (before?.fetchedAt ?? Number.NEGATIVE_INFINITY)) {
            this.turnedAwayUntil = this.now() + this.ceilingPeriodMs() / 4
            return window
          }
          this.failure = undefined
          this.notify()
          return window
        },
        (err: unknown) => {
          this.fail(err)
          throw err
        },
      )
      .finally(() => {
        this.reading = undefined
        this.arm()
      })
    // the failure is recorded above; a caller that does not wait must not see an unhandled rejection
    promise.catch(() => {})
    this.reading = { promise, startedAt }
    return promise
  }

  /** Adds read starts (ours, or the group's) to those the ceiling counts: the newest, each once. */
  private noteStarts(starts: readonly number[]): void {
    this.starts = [...new Set([...this.starts, ...starts])].sort((a, b) => a - b).slice(-MAX_READS_PER_PERIOD)
  }

  private fail(err: unknown): void {
    const error = err instanceof Error ? err : new UpstreamUnavailableError('The upstream read failed.')
    this.failure = { error, until: this.now() + backoffMs(error instanceof FeeMarketUnsupportedError, this.held() !== undefined) }
    this.notify()
  }

  /** The upstream read, timed (./timed-read.ts): the ceiling counts its start, and its duration is kept. */
  private async readUpstream(published?: FeedWindow): Promise<FeedWindow> {
    const startedAt = this.now()
    this.noteStarts([startedAt])
    try {
      return await timedRead({
        chain: this.chain,
        settings: this.settings,
        read: this.parts.read,
        plan: this.parts.plan ?? nextRead,
        held: this.held(),
        published,
        startedAt,
        now: this.now,
      })
    } finally {
      this.lastReadMs = this.now() - startedAt
    }
  }

  /** No window young enough to serve: a read, waited for up to RPC_TIMEOUT_MS (past the ceiling's wait, if any). */
  private async readForRequest(): Promise<CachedFeeWindow> {
    const deadline = this.now() + this.settings.rpcTimeoutMs
    try {
      let read = this.startRead()
      if (!read) {
        // the ceiling: the read starts as soon as it allows one
        const allowedAt = ceilingAllowsAt(this.starts, this.ceilingPeriodMs())
        if (allowedAt >= deadline) throw new UpstreamUnavailableError('The chain was read as often as allowed; no window is available yet.')
        await new Promise((r) => setTimeout(r, allowedAt - this.now()))
        read = this.startRead() ?? this.reading?.promise
        if (!read) throw new UpstreamUnavailableError('The chain was read as often as allowed; no window is available yet.')
      }
      this.parts.behind?.(read.catch(() => {}))
      const got = await withDeadline(read, deadline - this.now())
      // stale as the rules say (a failure, or STALE_PERIODS periods old): a read that found no newer
      // block is current, one turned away by the group's ceiling leaves the old window as old as it is
      return this.served(got, staleAt(this.now() - got.fetchedAt, this.ceilingPeriodMs(got), this.failure !== undefined))
    } catch (err) {
      // the read may go on past the deadline; until it ends, this is the failure requests see
      if (!this.failure) this.fail(err)
      // a chain that once served a window is not declared non-EIP-1559 by one odd answer: the last
      // good window, marked stale, while it is young enough
      const held = this.held()
      if (held && this.now() - held.fetchedAt <= this.settings.maxStaleMs) return this.served(held, true)
      throw err
    }
  }
}
