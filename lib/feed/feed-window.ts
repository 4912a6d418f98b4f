import type { FeeWindow } from '../core/types'

/**
 * A node's window as the feed holds, caches and shares it between instances: the window and the read
 * timing's state after the read that brought it. JSON-plain like the window; every field optional, so
 * a window read by an instance that did not set them is still one.
 */
export type FeedWindow = FeeWindow & {
  /**
   * When the next read is due, ms since the epoch: set by the feed when it reads (lib/feed/read-timing/next-read.ts
   * nextRead, timed on the chain's blocks), and carried with the window to the other instances.
   * Optional, so no cache or store version bump: a window without it (from an older instance) is
   * fresh for one period after it was read, the rule before.
   */
  nextReadAt?: number
  /**
   * The read timing's state after this read (lib/feed/read-timing/next-read.ts nextRead), carried with the window so
   * that whichever instance reads next continues from it (it includes when this read started).
   */
  readPhase?: ReadPhase
  /**
   * When the newest upstream reads of this chain started, ms since the epoch (at most
   * MAX_READS_PER_PERIOD of them, oldest first), by whichever instance of a group made them: the
   * group's read ceiling (lib/core/contract/freshness.ts) is checked against it. Optional like nextReadAt.
   */
  readStarts?: number[]
}

/**
 * The read timing's state (lib/feed/read-timing/next-read.ts nextRead): where the held head's slot is on the
 * clock the reads are timed on, and how long after a slot its block reaches the node (an upper
 * envelope learned from the reads themselves). A node's constant clock skew (a replay node serving
 * old timestamps) is inside the envelope and cancels out. Carried as JSON: nextRead starts over from
 * a phase that is not whole.
 */
export type ReadPhase = {
  /** The newest head any read has seen (a lagging node's older answer does not lower it). */
  head: number
  /** That head's timestamp, ms (the node's clock). */
  headTimestampMs: number
  /**
   * That head's slot, ms: its timestamp while timestamps track the wall clock; on a drifting chain
   * (`wallClock`) a wall-clock time projected from the blocks' arrivals.
   */
  refMs: number
  /** The timestamp step between consecutive blocks, ms (the last regular gap; the measured mean interval before). */
  stepMs: number
  /**
   * Wall time per block minus the timestamp step, ms (the slope over the last 64–128 blocks): about 0
   * where timestamps track the wall clock; 1,000 on a devnet whose timestamps advance 1 s per 2-s block.
   */
  driftMs: number
  /** Whether reads are timed on the wall clock (the drift is past a quarter step) rather than on timestamps. */
  wallClock: boolean
  /**
   * The highest start, ms after a slot, of a recent read that came too early for that slot's block
   * (it sinks by 1/4096 step per read, so a node that got faster is followed).
   */
  loMs: number
  /** When, ms after the next slot, the next read starts: at least a margin above loMs, the envelope of arrivals. */
  hiMs: number
  /** Midpoint of the read that found `head`, ms since the epoch; 0 when unknown (the first read). */
  foundAt: number
  /**
   * The drift's base: a block number and its found offset, ms (the found read's midpoint minus the
   * block's timestamp; a point on the fitted line once the base has moved). driftMs is the slope
   * from it to the newest head's found offset.
   */
  baseHead: number
  baseOffsetMs: number
  /** When the last read and the one before it started, ms since the epoch (0: none). The read ceiling needs both. */
  lastStartedAt: number
  previousStartedAt: number
  /** Reads in a row that found no new head (they back off: growing gaps). */
  misses: number
  /**
   * How often the chain's timestamp gaps differ from its step by more than an eighth (an average
   * over the last ~8 blocks, 0 to 1). Past IRREGULAR_LIMIT the chain has no step to time reads on.
   */
  irregular: number
  /**
   * The chain's wall-clock pace, learned from bracketed arrivals only: a block found by a read right
   * after one that came too early for it reached the node between the early read's start and the
   * finding read's end. `brackets` are the last of those, `[head, after, before]` (ms since the
   * epoch); `paceMs` is the wall time per block that fits all of them (0: not known yet), and
   * `paceErrMs` half the range of paces that do, ms.
   */
  brackets: [number, number, number][]
  paceMs: number
  paceErrMs: number
}
