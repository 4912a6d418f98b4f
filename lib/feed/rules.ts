/**
 * The feed's freshness, grace and failure rules, as one pure function of the state and the clock:
 * what a request gets, and whether a read should start (when the next read is due: read-timing.ts).
 * No I/O, no timers: lib/feed/fee-window.ts applies the decisions (and the tests drive them with
 * literal clocks).
 */
import { STALE_PERIODS } from '../core/freshness'

/** What the rules need to know of a chain's state. */
export type FeedState = {
  /** When the window held was read, ms since the epoch; undefined without one. */
  fetchedAt?: number
  /** Until when it is fresh (its next read is due: nextRead below), ms since the epoch; fetchedAt + ttlMs without it. */
  freshUntil?: number
  /** The last failed read and until when requests are not to retry, ms since the epoch. */
  failure?: { until: number }
  /** A read is under way (started by an earlier request). */
  reading: boolean
}

export type FeedRules = {
  /** How long a window is fresh: one block interval within [1 s, 60 s], ms. */
  ttlMs: number
  /** How old a window may be served at all, marked stale (MAX_STALE_SECONDS), ms. */
  maxStaleMs: number
}

/**
 * - `hit`: the window is fresh: serve it.
 * - `serve`: a window young enough to serve: serve it at once, `stale` when it is STALE_PERIODS cache
 *   periods old (the next read is late) or a read failed since it was fetched; start a
 *   read behind the answer when `read` (none is running and no failure back-off holds). Once a chain
 *   has a window, no request waits for the upstream.
 * - `failing`: within the back-off after a failed read, with no window young enough to serve: the
 *   failure is the answer.
 * - `wait`: no window young enough to serve: the request waits for a read (at most RPC_TIMEOUT_MS).
 */
export type Decision = { kind: 'hit' } | { kind: 'serve'; stale: boolean; read: boolean } | { kind: 'failing' } | { kind: 'wait' }


export function decide(state: FeedState, now: number, rules: FeedRules): Decision {
  const age = state.fetchedAt === undefined ? Number.POSITIVE_INFINITY : now - state.fetchedAt
  const backingOff = state.failure !== undefined && now < state.failure.until
  const freshUntil = state.freshUntil ?? (state.fetchedAt ?? Number.NEGATIVE_INFINITY) + rules.ttlMs
  if (now < freshUntil) return { kind: 'hit' }
  if (age <= rules.maxStaleMs) {
    return { kind: 'serve', stale: age >= STALE_PERIODS * rules.ttlMs || state.failure !== undefined, read: !state.reading && !backingOff }
  }
  return backingOff ? { kind: 'failing' } : { kind: 'wait' }
}

/** After a failed read: how long requests do not retry, ms (a chain never seen with a fee market is not asked again for long). */
export function backoffMs(unsupportedFeeMarket: boolean, hadWindow: boolean): number {
  return unsupportedFeeMarket && !hadWindow ? 300_000 : 1_000
}

