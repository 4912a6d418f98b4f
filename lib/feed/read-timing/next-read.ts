/** The feed's read timing, a pure function: when the next read of a chain is due, so each new block is read once, soon after it lands. */
import type { ReadPhase } from '../feed-window'

/** One finished read, as the phase needs it. */
export type ReadOutcome = {
  /** When the read started and ended, ms since the epoch. */
  startedAt: number
  endedAt: number
  headNumber: number
  /** The head's timestamp, ms (the node's clock). */
  headTimestampMs: number
  /** The chain's measured mean block interval (from its timestamps), ms. */
  intervalMs: number
  /** The head this process held before the read, and its timestamp (ms); undefined for the first read. */
  previousHead?: number
  previousHeadTimestampMs?: number
}

/** The first retry after a read that found no new head comes this share of a step later; each next one doubles the gap. */
const RETRY_SHARE = 1 / 16
/** The first retry's share in the first YOUNG_BLOCKS blocks found, while the envelope still creeps down from its first guess. */
const YOUNG_RETRY_SHARE = 1 / 8
const YOUNG_BLOCKS = 16
/** A read is planned at least this share of a step past the latest start that came too early (WALL_: on the wall clock). */
const MARGIN_SHARE = 1 / 32
const WALL_MARGIN_SHARE = 1 / 16
/** After an on-time read, the planned start moves this share of the way down to loMs + margin. */
const CREEP_SHARE = 1 / 4
/** loMs sinks by this share of a step per read: a node that got faster is followed (a 1/10-step speedup in ~400 reads); with the margin it sets the share of reads that come early (about 1/128). */
const DECAY_SHARE = 1 / 4_096
/** After a late block, the planned start jumps to where that block was found, but by at most this share of a step. */
const JUMP_SHARE = 1 / 4
/** Reads are never closer than this share of a step (one's end to the next one's start). */
const MIN_GAP_SHARE = 1 / 64
/** A gap off the step by more than IRREGULAR_GAP_SHARE is irregular; past IRREGULAR_LIMIT of them, reads are not timed on blocks. */
const IRREGULAR_GAP_SHARE = 1 / 8
const IRREGULAR_LIMIT = 1 / 4
/** A timestamp gap longer than this many mean intervals is a missed slot or a pause, not the chain's step. */
const MAX_STEP_INTERVALS = 1.5
/** The drift's base moves along the fitted line to between BASE_KEEP and BASE_MAX blocks back. */
const BASE_KEEP = 64
const BASE_MAX = 128
/** The clock changes only on a slope over at least this many blocks (a read's jitter, up to half a step, over 8). */
const SWITCH_SPAN = 8
/** Reads go on the wall clock past half a step of drift and back below an eighth: a read's own jitter does not flip them. */
const DRIFT_ENTER_SHARE = 1 / 2
const DRIFT_LEAVE_SHARE = 1 / 8
/** One drift sample counts at most this many steps (a process that started mid-pause measures nonsense once). */
const DRIFT_CLIP_STEPS = 4
/** A bracketed arrival's allowance for the node's delay varying from block to block, a share of a step. */
const JITTER_SHARE = 1 / 16
/** After arrivals left every line, the pace's error is at least this share of it: reads keep probing until brackets bound it again. */
const MIN_PACE_ERR_SHARE = 1 / 64
/** The pace error the reads plan against, as a share of the worst case the brackets bound. */
const ERR_SCALE = 3 / 4
/** On the wall clock loMs sinks by the pace's error over at most RAMP_BLOCKS, keeping reads under LATE_SHARE late. */
const LATE_SHARE = 1 / 4
const RAMP_BLOCKS = 64
/** Brackets older than BRACKET_MAX_BLOCKS are dropped (a devnet's pace may change); the pace fits at most MAX_BRACKETS. */
const BRACKET_MAX_BLOCKS = 512
const MAX_BRACKETS = 8
/** Recent misses decay by MISS_MEMORY a block; above MISS_GUARD (a miss in about the last 19 blocks) reads creep at GUARDED_CREEP_SHARE. */
const MISS_MEMORY = 1 / 16
const MISS_GUARD = 0.3
const GUARDED_CREEP_SHARE = 1 / 16
/** A block later than the envelope by this share of a step re-anchors the wall clock's slots (a devnet that paused). */
const REANCHOR_SHARE = 1 / 4

/**
 * When the next read is due (on the blocks' slots, within an envelope of arrivals learned from the reads;
 * docs/operations.md, "How reads are timed"). The caller keeps the returned phase and arms its timer on `at`.
 */
export function nextRead(
  phase: ReadPhase | undefined,
  read: ReadOutcome,
  bounds: { minMs: number; maxMs: number },
): { at: number; phase?: ReadPhase } {
  const clamp = (ms: number) => Math.min(bounds.maxMs, Math.max(bounds.minMs, ms))
  const periodMs = clamp(read.intervalMs)
  const { startedAt: s, endedAt: e, headNumber: h, headTimestampMs: t } = read
  if (read.intervalMs < bounds.minMs || read.intervalMs > bounds.maxMs) return { at: e + periodMs }
  // a phase not whole (from JSON elsewhere), or of a chain since started anew (a lower head, later), starts over
  if (phase && (!wholePhase(phase) || (read.headNumber < phase.head && read.headTimestampMs > phase.headTimestampMs))) phase = undefined
  const mid = (s + e) / 2
  let next: ReadPhase
  let lagging = false
  if (!phase) {
    // block h reached the node by the read's end, h + 1 had not when it started: h's delay after its slot is
    // within (s - t - step, e - t].
    const step = read.intervalMs
    const lo0 = s - t - step
    const hi0 = Math.max(lo0, Math.min(e - t, (Math.max(lo0, 0) + (e - t)) / 2))
    next = {
      head: h,
      headTimestampMs: t,
      refMs: t,
      stepMs: step,
      driftMs: 0,
      wallClock: false,
      loMs: lo0,
      hiMs: hi0,
      foundAt: 0,
      baseHead: 0,
      baseOffsetMs: 0,
      lastStartedAt: s,
      previousStartedAt: 0,
      misses: 0,
      irregular: 0,
      brackets: [],
      paceMs: 0,
      paceErrMs: 0,
      recentMisses: 0,
    }
  } else {
    const starts = { lastStartedAt: s, previousStartedAt: phase.lastStartedAt }
    const wallStep = phase.stepMs + (phase.wallClock ? phase.driftMs : 0)
    const lo = phase.loMs - wallStep * DECAY_SHARE
    if (h < phase.head) {
      lagging = true
      next = { ...phase, ...starts }
    } else if (h === phase.head) {
      next = { ...phase, ...starts, loMs: lo, misses: phase.misses + 1 }
    } else {
      next = found(phase, read, lo, mid)
      next = { ...next, ...starts }
    }
  }
  const step = next.stepMs + (next.wallClock ? next.driftMs : 0)
  // the period, or on a drifting chain one wall-clock step (its timestamp interval is shorter)
  const capMs = next.wallClock ? clamp(Math.max(periodMs, step)) : periodMs
  const byPeriod = e + capMs
  let at: number
  if (next.irregular > IRREGULAR_LIMIT) at = byPeriod
  else {
    const planned = (k: number) => next.refMs + k * step + next.hiMs
    if (lagging) at = Math.max(s + step * JUMP_SHARE, planned(1))
    else if (next.misses === 0) at = planned(1)
    else {
      const young = next.foundAt > 0 && next.head - next.baseHead < YOUNG_BLOCKS
      const backoff = s + Math.min(capMs, step * (young ? YOUNG_RETRY_SHARE : RETRY_SHARE) * 2 ** (next.misses - 1))
      // the first slot after this read whose planned read is still ahead (a missed slot: the one after)
      const k = Math.max(1, Math.ceil((s + step * MIN_GAP_SHARE - next.refMs - next.hiMs) / step))
      at = Math.min(backoff, planned(k))
    }
  }
  // the ceiling: at most MAX_READS_PER_PERIOD (2) reads start within one period
  const ceiling = next.previousStartedAt > 0 ? next.previousStartedAt + periodMs : Number.NEGATIVE_INFINITY
  const bounded = Math.min(byPeriod, Math.max(e + step * MIN_GAP_SHARE, ceiling, at))
  return Number.isFinite(bounded) && wholePhase(next) ? { at: bounded, phase: next } : { at: e + periodMs }
}

/** What a read that found a head newer than the phase's teaches: the step, the drift, the slot clock and the envelope. */
function found(phase: ReadPhase, read: ReadOutcome, decayedLo: number, mid: number): ReadPhase {
  const { startedAt: s, headNumber: h, headTimestampMs: t } = read
  const n = h - phase.head
  const gap = t - phase.headTimestampMs
  let { stepMs: step, irregular, driftMs: drift, wallClock } = phase
  // a gap over 1.5 mean intervals is a missed slot or a pause: neither the step nor irregular
  if (n === 1 && gap > 0 && gap <= read.intervalMs * MAX_STEP_INTERVALS) {
    const off = Math.abs(gap - step) > step * IRREGULAR_GAP_SHARE ? 1 : 0
    irregular = irregular * (7 / 8) + off / 8
    step = gap
  }
  // the found offset's slope from the base: wall time per block minus the timestamps' step
  let { baseHead, baseOffsetMs } = phase
  const offset = mid - t
  const projected = phase.refMs + n * (phase.stepMs + phase.driftMs)
  if (phase.wallClock && phase.misses > 0 && n === 1 && s - projected > phase.hiMs + (phase.stepMs + drift) * REANCHOR_SHARE) {
    // a pause: the slope keeps its estimate, on a base BASE_KEEP blocks back from here
    baseHead = h - BASE_KEEP
    baseOffsetMs = offset - BASE_KEEP * drift
  } else if (phase.foundAt === 0 || gap < 0) {
    baseHead = h
    baseOffsetMs = offset
  } else {
    const clip = step * DRIFT_CLIP_STEPS
    const span = h - baseHead
    drift = Math.min(clip, Math.max(-clip, (offset - baseOffsetMs) / span))
    if (span > BASE_MAX) {
      baseHead = h - BASE_KEEP
      baseOffsetMs = offset - BASE_KEEP * drift
    }
  }
  // the wall-clock pace from bracketed arrivals (see ReadPhase.paceMs)
  let { brackets, paceMs, paceErrMs } = phase
  if (phase.misses > 0 && n === 1 && gap >= 0 && phase.lastStartedAt > 0) {
    const kept = brackets.filter((b) => b[0] < h && h - b[0] <= BRACKET_MAX_BLOCKS)
    // the oldest (the longest span) and the newest
    brackets = [
      ...(kept.length >= MAX_BRACKETS ? [kept[0]!, ...kept.slice(2 - MAX_BRACKETS)] : kept),
      [h, phase.lastStartedAt, read.endedAt],
    ]
    const jitter = (paceMs || step) * JITTER_SHARE
    const fit = paceOf(brackets, jitter)
    if (fit && fit.pace > 0) {
      paceMs = fit.pace
      paceErrMs = fit.err
    } else if (brackets.length > 1) {
      // no line through this arrival and the ones before (a pause, a node that changed pace): the
      // brackets start again from it, the pace kept until two of them bound it again
      brackets = brackets.slice(-1)
      paceErrMs = Math.max(paceErrMs, paceMs * MIN_PACE_ERR_SHARE)
    }
  }
  // a read that came too early costs a read: after one (a block's run of misses, a pause's included,
  // counts once), the envelope creeps down slowly for a while, so a cold start and a chain resumed
  // after a pause learn their blocks' delay without a miss every few blocks
  const recentMisses = phase.recentMisses * (1 - MISS_MEMORY) ** n + Math.min(1, phase.misses)
  const guarded = recentMisses >= MISS_GUARD && irregular <= IRREGULAR_LIMIT
  const wasWall = wallClock
  if (paceMs > 0) {
    // the bracketed pace decides the clock once there is one: the slope of found reads is the plan's own on the wall clock
    const off = Math.abs(paceMs - step)
    const likely = paceErrMs * ERR_SCALE
    if (!wallClock && irregular <= IRREGULAR_LIMIT && off - likely > step * DRIFT_ENTER_SHARE && likely < step * JUMP_SHARE)
      wallClock = true
    else if (wallClock && off + paceErrMs < step * DRIFT_LEAVE_SHARE) wallClock = false
    if (wallClock) drift = paceMs - step
  } else if (h - baseHead < SWITCH_SPAN) {
    // too short a slope to change the clock on
  } else if (!wallClock && Math.abs(drift) > step * DRIFT_ENTER_SHARE) wallClock = true
  else if (wallClock && Math.abs(drift) < step * DRIFT_LEAVE_SHARE) wallClock = false
  const wallStep = step + (wallClock ? drift : 0)
  let lo = decayedLo
  // on the wall clock the slots are projected on the pace, whose error adds up block after block
  // unseen (on-time reads find their block either way): loMs sinks by that error per block, so reads
  // come earlier until one is too early, and its bracket corrects the phase and the pace
  const margin = wallClock ? WALL_MARGIN_SHARE : MARGIN_SHARE
  let sink = 0
  if (wallClock && wasWall && !(phase.misses > 0 && n === 1)) {
    const err = Math.min(wallStep * JUMP_SHARE, paceMs > 0 ? paceErrMs * ERR_SCALE : wallStep * JITTER_SHARE)
    // the sink ramps up over the first blocks after a bracket, no longer than lets an error of `err`
    // per block put the reads more than LATE_SHARE of a step late before it outruns it; with no
    // bracket yet (the clock changed on the slope), at the full error at once
    const ramp = Math.max(1, Math.min(RAMP_BLOCKS, (2 * LATE_SHARE * wallStep) / err))
    const lastBracket = brackets.at(-1)?.[0]
    sink = (n * err * (lastBracket === undefined ? ramp : h - lastBracket)) / ramp
    lo -= sink
  }
  let hi = phase.hiMs
  let ref = wallClock ? projected : t
  if (phase.foundAt === 0 && gap > read.intervalMs * MAX_STEP_INTERVALS) {
    // the first block found since the cold start came after a pause (a devnet seeded in the past, a
    // chain that stalled): the first read's envelope measured the pause, not the blocks' delays (its
    // head's slot was long gone), and would have held the reads at one period after the last until a
    // skipped block reset it. It starts over from this read
    lo = Math.min(lo, s - ref - (step + (wallClock ? drift : 0)))
    hi = Math.min(hi, s - ref)
  }
  if (wallClock !== wasWall) {
    // the other clock: this read is taken as on the envelope, nothing yet known too early
    ref = wallClock ? s - hi : t
    hi = s - ref
    lo = hi - wallStep * JUMP_SHARE
  } else if (phase.misses > 0 && n === 1) {
    if (wallClock && s - ref > hi + wallStep * REANCHOR_SHARE) ref = s - hi // a pause: slots start again here
    // the read before this one came too early for h, this one found it: h arrived between their starts (and
    // their answers).
    const early = phase.lastStartedAt - ref
    const foundAt = s - ref
    // On the wall clock, to where this one started, but at most two margins above the early one:
    // the reads then stay near the top of a narrow bracket (the sink brings them down), and a wide
    // one (retries held back by the ceiling, the end of a pause) is narrowed by the next read. On
    // timestamps, to the bracket's top: a miss costs a read, a read at the top only its width
    const to = wallClock ? Math.min(foundAt, early + 2 * wallStep * WALL_MARGIN_SHARE) : foundAt
    lo = Math.max(lo, early)
    hi = Math.max(lo + wallStep * margin, Math.min(to, hi + wallStep * JUMP_SHARE))
  } else if (n === 1) {
    const floor = lo + wallStep * margin
    hi = Math.max(floor, hi - sink - (hi - sink - floor) * (guarded ? GUARDED_CREEP_SHARE : CREEP_SHARE))
  } else {
    // blocks went by unread: this read was late, h had arrived by its start
    hi = Math.min(hi, s - ref)
    lo = Math.min(lo, hi - wallStep * margin)
  }
  return {
    ...phase,
    head: h,
    headTimestampMs: t,
    refMs: ref,
    stepMs: step,
    driftMs: drift,
    wallClock,
    loMs: lo,
    hiMs: hi,
    foundAt: mid,
    baseHead,
    baseOffsetMs,
    misses: 0,
    irregular,
    brackets,
    paceMs,
    paceErrMs,
    recentMisses,
  }
}

/**
 * The wall time per block that fits every bracket (`[head, after, before]`: the head reached the node after
 * `after` and before `before`, ms; each widened by `jitterMs` for the node's varying delay): the middle of
 * the slopes a line through all of them can have, and half their range.
 */
export function paceOf(
  brackets: readonly (readonly [number, number, number])[],
  jitterMs: number,
): { pace: number; err: number } | undefined {
  let lo = Number.NEGATIVE_INFINITY
  let hi = Number.POSITIVE_INFINITY
  for (let i = 0; i < brackets.length; i++) {
    for (let j = i + 1; j < brackets.length; j++) {
      const [a, b] = brackets[i]![0] < brackets[j]![0] ? [brackets[i]!, brackets[j]!] : [brackets[j]!, brackets[i]!]
      const span = b[0] - a[0]
      if (span <= 0) continue
      lo = Math.max(lo, (b[1] - a[2] - jitterMs) / span)
      hi = Math.min(hi, (b[2] - a[1] + jitterMs) / span)
    }
  }
  if (!Number.isFinite(lo) || !Number.isFinite(hi) || lo > hi) return undefined
  return { pace: (lo + hi) / 2, err: (hi - lo) / 2 }
}

/** Every field a finite number (a boolean for the clock) and a positive step: a phase read back from JSON may be neither. */
function wholePhase(p: ReadPhase): boolean {
  const numbers = [
    p.head,
    p.headTimestampMs,
    p.refMs,
    p.stepMs,
    p.driftMs,
    p.loMs,
    p.hiMs,
    p.foundAt,
    p.baseHead,
    p.baseOffsetMs,
    p.lastStartedAt,
    p.previousStartedAt,
    p.misses,
    p.irregular,
    p.paceMs,
    p.paceErrMs,
    p.recentMisses,
  ]
  return (
    numbers.every((v) => typeof v === 'number' && Number.isFinite(v)) &&
    typeof p.wallClock === 'boolean' &&
    p.stepMs > 0 &&
    Array.isArray(p.brackets) &&
    p.brackets.every((b) => Array.isArray(b) && b.length === 3 && b.every((v) => typeof v === 'number' && Number.isFinite(v)))
  )
}
