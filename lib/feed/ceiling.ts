/**
 * The hard ceiling on upstream reads, whatever the read timing believes: at most this many reads of a
 * chain start within any one period of wall time, per process and, through the shared store, per
 * group of instances.
 */
export const MAX_READS_PER_PERIOD = 2

/**
 * The earliest time a read may start under the ceiling, ms since the epoch: `starts` are the start
 * times of the reads so far (any order; only the newest MAX_READS_PER_PERIOD matter).
 */
export function ceilingAllowsAt(starts: readonly number[], periodMs: number): number {
  if (starts.length < MAX_READS_PER_PERIOD) return Number.NEGATIVE_INFINITY
  const newest = [...starts].sort((a, b) => b - a)
  return newest[MAX_READS_PER_PERIOD - 1]! + periodMs
}
