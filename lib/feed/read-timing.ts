/**
 * The feed's read timing, a pure function: when the next upstream read of a chain is due, so that
 * each new block is read once, soon after it reaches the node. No I/O, no timers: the chain's feed
 * (lib/feed/chain-feed.ts) keeps the returned phase and arms its timer on the returned time.
 */
import type { ReadPhase } from '../core/types'

export type { ReadPhase } from '../core/types'

/** One finished read, as the phase needs it. */
export type ReadOutcome = {
  /** When the read started and ended, ms since the epoch. */
  startedAt: number
  endedAt: number
  headNumber: number
  /** The head's timestamp, ms (the node's clock). */
  headTimestampMs: number
  /** The chain's measured mean block interval, ms. */
  intervalMs: number
  /** The head this process held before the read, and its timestamp (ms); undefined for the first read. */
  previousHead?: number
  previousHeadTimestampMs?: number
}

/**
 * Per read, the bracket widens by this share of a step on both sides: the node's delay may change, and
 * an old bound must not hold for ever. A bracket at its tolerance widens past it in about 64 reads, and
 * one probe (a read at its middle, half of which come too early and are read again) narrows it.
 */
const DECAY_SHARE = 1 / 4_096
/** The bracket is narrow enough at this share of a step plus the read's own duration; wider, the next read probes its middle. */
const TOLERANCE_SHARE = 1 / 16
/**
 * A block past its bracket is looked for again after RETRY_SHARE of a step while it is less than
 * RETRY_WHILE_LATE_SHARE late, then after SLOW_RETRY_SHARE while less than SLOW_RETRY_WHILE_LATE_SHARE
 * late (then it is a missed slot or a stall: the next step).
 */
const RETRY_SHARE = 1 / 16
const RETRY_WHILE_LATE_SHARE = 1 / 4
const SLOW_RETRY_SHARE = 1 / 4
const SLOW_RETRY_WHILE_LATE_SHARE = 7 / 8
/** A gap off the step by more than this share of it is irregular. */
const IRREGULAR_GAP_SHARE = 1 / 8
/** Past this share of irregular gaps, reads are not timed on the chain's blocks. */
const IRREGULAR_LIMIT = 1 / 4
/** Reads are never closer than this share of a step (one's end to the next one's start). */
const MIN_GAP_SHARE = 1 / 64
/** A timestamp gap longer than this many mean intervals is a missed slot or a pause, not the chain's step. */
const MAX_STEP_INTERVALS = 1.5

/**
 * When the next read is due, so that each new block is read once, soon after it reaches the node:
 * the stream sends one event per block, and a read per block is what the service may spend.
 *
 * Reading one interval after the last read ended (the rule before) drifts later by the read's own
 * duration and the timers' delays every block, and skips a block each time the drift reaches an
 * interval. Here reads are timed on the chain's blocks: the next block is expected at the head's
 * timestamp plus one step, and reaches the node within (loMs, hiMs] of it.
 * - Every read narrows the bracket. A read that saw block h: h arrived by the read's end (hiMs), and
 *   had not when the read before it, which saw h − 1, started (loMs); h + 1 had not arrived when it
 *   started (loMs). A read that came early and found no new head: the block had not arrived then (loMs).
 * - The next read starts at the bracket's top once it is narrow (1/16 step plus a read's duration):
 *   the block is there, and the read ends at most that much after it landed. Wider, it probes the
 *   middle; a probe that comes too early costs one more read. A new process needs about four probes.
 * - The bracket widens by 1/4096 step per read, so a node that got faster is found again (one probe
 *   per ~64 blocks) and one that got slower is seen at once: its block is past the bracket.
 * - A block past its bracket (late, a missed slot, a stalled chain) is looked for every 1/16 step while
 *   it is less than a quarter step late, every quarter step while less than 7/8 step late, then at
 *   the next step: a late block still gets its own read, a missed slot costs about seven reads, and a
 *   stalled chain is read once per step after its first. The read that finds a late block resets
 *   the bracket to what that read knows.
 * - A bracket that contradicts itself (the node's delay changed) is reset to the last read's bounds.
 * - A head behind the one held (a lagging node behind a failover) says nothing of the chain's blocks:
 *   the phase is kept, and the next read is at the held head's next bracket top.
 * - Chains whose interval is outside [minMs, maxMs] (sub-second blocks: several per read in any case),
 *   and chains whose timestamp gaps are irregular (more than a quarter of recent gaps off the step by
 *   over an eighth: blocks made on demand, no slots) keep the rule before: one period (the interval
 *   within the bounds) after the read ended.
 * Pure: the caller keeps the returned phase for the next read.
 */
export function nextRead(
  phase: ReadPhase | undefined,
  read: ReadOutcome,
  bounds: { minMs: number; maxMs: number },
): { at: number; phase?: ReadPhase } {
  const periodMs = Math.min(bounds.maxMs, Math.max(bounds.minMs, read.intervalMs))
  if (read.intervalMs < bounds.minMs || read.intervalMs > bounds.maxMs) return { at: read.endedAt + periodMs }
  const { startedAt: s, endedAt: e, headNumber: h, headTimestampMs: t } = read
  const byPeriod = e + periodMs
  // a phase that came through JSON from elsewhere and is not whole starts over
  if (phase && !wholePhase(phase)) phase = undefined
  if (phase && read.previousHead !== undefined && h < read.previousHead) {
    // a lagging node's answer: nothing learned; look again at the held head's next bracket top. The
    // window held next is this one (head h): no read start is known to precede h + 1's arrival (0)
    const heldNext = (read.previousHeadTimestampMs ?? t) + phase.stepMs + phase.hiMs
    return { at: Math.min(byPeriod, Math.max(e + phase.stepMs * SLOW_RETRY_SHARE, heldNext)), phase: { ...phase, lastStartedAt: 0 } }
  }
  let next: ReadPhase
  if (!phase || read.previousHead === undefined) {
    const step = read.intervalMs
    next = { loMs: s - t - step, hiMs: e - t, stepMs: step, lastStartedAt: s, overdue: 0, irregular: 0 }
  } else {
    const p = read.previousHead
    const decay = phase.stepMs * DECAY_SHARE
    let { stepMs: step, irregular } = phase
    let lo = phase.loMs - decay
    let hi = phase.hiMs + decay
    let overdue = 0
    if (h > p) {
      const gap = read.previousHeadTimestampMs === undefined ? undefined : t - read.previousHeadTimestampMs
      // a gap over 1.5 mean intervals is a missed slot or a pause: neither the step nor irregular
      if (h === p + 1 && gap !== undefined && gap > 0 && gap <= read.intervalMs * MAX_STEP_INTERVALS) {
        const off = Math.abs(gap - step) > step * IRREGULAR_GAP_SHARE ? 1 : 0
        irregular = irregular * (7 / 8) + off / 8
        step = gap
      }
      // h had not arrived when the read that saw h − 1 started; h + 1 had not when this one started
      const seenLo = Math.max(h === p + 1 ? phase.lastStartedAt - t : Number.NEGATIVE_INFINITY, s - t - step)
      const seenHi = e - t
      lo = Math.max(lo, seenLo)
      hi = Math.min(hi, seenHi)
      if (lo >= hi) [lo, hi] = [seenLo, seenHi]
    } else {
      // the same head: the block after it had not arrived when this read started
      const earlyLo = s - (t + step)
      if (earlyLo < hi) lo = Math.max(lo, earlyLo)
      else overdue = phase.overdue + 1
    }
    next = { loMs: lo, hiMs: hi, stepMs: step, lastStartedAt: s, overdue, irregular }
  }
  if (next.irregular > IRREGULAR_LIMIT) return { at: byPeriod, phase: next }
  const step = next.stepMs
  const expected = t + step
  let at: number
  if (next.overdue > 0) {
    const dueAt = expected + next.hiMs
    const late = s - dueAt
    if (late < step * RETRY_WHILE_LATE_SHARE) at = s + step * RETRY_SHARE
    else if (late < step * SLOW_RETRY_WHILE_LATE_SHARE) at = s + step * SLOW_RETRY_SHARE
    else at = dueAt + Math.ceil(Math.max(0, e - dueAt) / step) * step
  } else {
    const narrow = next.hiMs - next.loMs <= step * TOLERANCE_SHARE + (e - s)
    at = expected + (narrow ? next.hiMs : (next.loMs + next.hiMs) / 2)
  }
  // never sooner than a sliver after this read, never later than one period (the rule before)
  const bounded = Math.min(byPeriod, Math.max(e + step * MIN_GAP_SHARE, at))
  return Number.isFinite(bounded) && wholePhase(next) ? { at: bounded, phase: next } : { at: byPeriod }
}

/** Every field a finite number and a positive step (a phase read back from JSON may be neither). */
function wholePhase(p: ReadPhase): boolean {
  return (
    [p.loMs, p.hiMs, p.stepMs, p.lastStartedAt, p.overdue, p.irregular].every((v) => typeof v === 'number' && Number.isFinite(v)) &&
    p.stepMs > 0
  )
}
