/**
 * The feed's freshness constants, in one place: how long a window is fresh (the period, one block interval
 * within [1 s, 60 s]), when a served answer is called stale (STALE_PERIODS), how old an answer a client may
 * act on (answerAgeBlocks: the max fee's headroom covers it), and the hard ceiling on upstream reads
 * (MAX_READS_PER_PERIOD).
 */

/** The period's bounds: about one block interval, but not below 1 s (unstable_cache's unit) or above 60 s. */
export const MIN_PERIOD_MS = 1_000
export const MAX_PERIOD_MS = 60_000

/** A chain's period: its measured block interval within [MIN_PERIOD_MS, MAX_PERIOD_MS], ms. */
export function periodOf(blockIntervalMs: number): number {
  return Math.min(MAX_PERIOD_MS, Math.max(MIN_PERIOD_MS, blockIntervalMs))
}

/**
 * A window's next read (lib/feed/read-timing/next-read.ts) is trusted up to this many periods after the
 * window was read: on a drifting devnet the wall-clock pace can come out a little short of the plan's, and
 * one period would have requests read early (docs/benchmarks.md, FRESH_PERIODS).
 */
export const FRESH_PERIODS = 2

/**
 * An answer is current while it is younger than three periods: the max fee's headroom covers an answer that
 * old (answerAgeBlocks), and a read under way that brings the next window within that time is not late.
 */
export const STALE_PERIODS = 3

/**
 * How many blocks old an answer can be when a client uses it: STALE_PERIODS periods (a window is
 * current that long), in blocks of the chain's interval; a period is never under 1 s, so on faster
 * chains that is more blocks.
 */
export function answerAgeBlocks(blockIntervalMs: number): number {
  return Math.ceil((STALE_PERIODS * periodOf(blockIntervalMs)) / Math.max(1, blockIntervalMs) - 1e-9)
}
