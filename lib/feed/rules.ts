/**
 * The feed's freshness, grace and failure rules, as one pure function of the state and the clock: what a
 * request gets, and whether a read should start (when the next read is due: read-timing.ts).
 */
import { STALE_PERIODS } from '../core/contract/freshness'
import type { FeeWindow } from '../core/types'

/** What the rules need to know of a chain's state. */
export type FeedState = {
  /** When the window held was read, ms since the epoch; undefined without one. */
  fetchedAt?: number
  /** Until when it is fresh (its next read is due: read-timing.ts nextRead), ms since the epoch; fetchedAt + periodMs without it. */
  freshUntil?: number
  /** The last failed read and until when requests are not to retry, ms since the epoch. */
  failure?: { until: number }
  /** When the read under way started, ms since the epoch; undefined when none is. */
  readingSince?: number
  /** How long the last upstream read took, ms; undefined before the first. */
  lastReadMs?: number
}

export type FeedRules = {
  /** The chain's period: one block interval within [1 s, 60 s] (lib/core/contract/freshness.ts periodOf), ms. */
  periodMs: number
  /** How old a window may be served at all, marked stale (MAX_STALE_SECONDS), ms. */
  maxStaleMs: number
  /** Longest a request waits for a due read before it is answered from the older window (FEED_WAIT_MS), ms. */
  waitMs: number
}

/**
 * - `hit`: the window is fresh (its next read is not due yet): serve it.
 * - `serve`: the window's next read is due and the window is young enough to serve: start the read
 *   when `read` (none is running and no failure back-off holds), wait for it until `waitUntil` (when
 *   set), then serve the new window, or this one, `stale` when it is STALE_PERIODS periods old or a
 *   read failed since it was fetched.
 * - `failing`: within the back-off after a failed read, with no window young enough to serve: the
 *   failure is the answer.
 * - `wait`: no window young enough to serve: the request waits for a read (at most RPC_TIMEOUT_MS).
 */
export type Decision =
  { kind: 'hit' } | { kind: 'serve'; stale: boolean; read: boolean; waitUntil?: number } | { kind: 'failing' } | { kind: 'wait' }

/** A due read is waited for up to twice the last read's duration plus this, ms (never past FEED_WAIT_MS). */
const WAIT_SLACK_MS = 50

export function decide(state: FeedState, now: number, rules: FeedRules): Decision {
  const age = state.fetchedAt === undefined ? Number.POSITIVE_INFINITY : now - state.fetchedAt
  const backingOff = state.failure !== undefined && now < state.failure.until
  const freshUntil = state.freshUntil ?? (state.fetchedAt ?? Number.NEGATIVE_INFINITY) + rules.periodMs
  if (now < freshUntil) return { kind: 'hit' }
  if (age <= rules.maxStaleMs) {
    const read = state.readingSince === undefined && !backingOff
    const stale = staleAt(age, rules.periodMs, state.failure !== undefined)
    const waitUntil = waitForRead(now, read ? now : state.readingSince, state.lastReadMs, rules.waitMs)
    return waitUntil === undefined ? { kind: 'serve', stale, read } : { kind: 'serve', stale, read, waitUntil }
  }
  return backingOff ? { kind: 'failing' } : { kind: 'wait' }
}

/** Whether an answer is stale: its window STALE_PERIODS periods old (`ageMs`), or a read failed since it was read. */
export function staleAt(ageMs: number, periodMs: number, failed: boolean): boolean {
  return failed || ageMs >= STALE_PERIODS * periodMs
}

/**
 * Until when a request waits for the read that started at `readStartedAt` (undefined: none runs), ms since
 * the epoch; undefined: it does not wait.
 */
export function waitForRead(
  now: number,
  readStartedAt: number | undefined,
  lastReadMs: number | undefined,
  waitMs: number,
): number | undefined {
  if (readStartedAt === undefined || waitMs <= 0) return undefined
  if (lastReadMs !== undefined && lastReadMs > waitMs) return undefined
  const until = Math.min(now + waitMs, lastReadMs === undefined ? Number.POSITIVE_INFINITY : readStartedAt + 2 * lastReadMs + WAIT_SLACK_MS)
  return until > now ? until : undefined
}

/** After a failed read: how long requests do not retry, ms (a chain never seen with a fee market is not asked again for long). */
export function backoffMs(unsupportedFeeMarket: boolean, hadWindow: boolean): number {
  return unsupportedFeeMarket && !hadWindow ? 300_000 : 1_000
}

/** Below this, a head is never called lagging: missed slots and uneven block times are normal. */
const MIN_HEAD_AGE_LIMIT_MS = 60_000

/**
 * Whether the node's latest block is older than `maxHeadAgeMs` (undefined: max(60 s, 10 block
 * intervals); 0: never) by the wall clock: a node that answers but stopped following the chain.
 */
export function headLagging(
  window: Pick<FeeWindow, 'blockIntervalMs' | 'headTimestamp'>,
  now: number,
  maxHeadAgeMs: number | undefined,
): boolean {
  if (maxHeadAgeMs === 0) return false
  const limitMs = maxHeadAgeMs ?? Math.max(MIN_HEAD_AGE_LIMIT_MS, 10 * window.blockIntervalMs)
  return now - window.headTimestamp * 1000 > limitMs
}
