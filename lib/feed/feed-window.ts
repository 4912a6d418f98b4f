import type { FeeWindow } from '../core/types'

/** A node's window as the feed holds and shares it: the window and the read timing's state after the read that brought it. */
export type FeedWindow = FeeWindow & {
  /** When the next read is due, ms since the epoch (nextRead, lib/feed/read-timing/next-read.ts). */
  nextReadAt?: number
  /** The read timing's state after this read: whichever instance reads next continues from it. */
  readPhase?: ReadPhase
  /** When the group's newest reads of this chain started (at most MAX_READS_PER_PERIOD, oldest first), ms: the group's read ceiling. */
  readStarts?: number[]
}

/**
 * The read timing's state (nextRead): where the held head's slot is on the clock reads are timed on, and how
 * long after a slot its block reaches the node. docs/operations.md, "How reads are timed", explains each part.
 */
export type ReadPhase = {
  /** The newest head any read has seen, and its timestamp (ms, the node's clock). */
  head: number
  headTimestampMs: number
  /** That head's slot, ms: its timestamp, or on a drifting chain (`wallClock`) a wall-clock time projected from arrivals. */
  refMs: number
  /** The timestamp step between consecutive blocks, ms. */
  stepMs: number
  /** Wall time per block minus the timestamp step, ms: about 0 where timestamps track the wall clock. */
  driftMs: number
  /** Whether reads are timed on the wall clock rather than on timestamps. */
  wallClock: boolean
  /** The envelope, ms after a slot: the latest start of a read that came too early, and when the next read starts. */
  loMs: number
  hiMs: number
  /** Midpoint of the read that found `head`, ms since the epoch; 0 when unknown. */
  foundAt: number
  /** The drift's base: a block number and its found offset (read midpoint minus timestamp), ms. */
  baseHead: number
  baseOffsetMs: number
  /** When the last read and the one before it started, ms since the epoch (0: none). */
  lastStartedAt: number
  previousStartedAt: number
  /** Reads in a row that found no new head. */
  misses: number
  /** How often recent timestamp gaps differ from the step by more than an eighth (0 to 1). */
  irregular: number
  /** Bracketed arrivals `[head, after, before]` (ms since the epoch), and the wall-clock pace that fits them with its error, ms (0: unknown). */
  brackets: [number, number, number][]
  paceMs: number
  paceErrMs: number
  /** Reads that found no new head, decayed by MISS_MEMORY per block found: while above MISS_GUARD, reads stop creeping earlier. */
  recentMisses: number
}
