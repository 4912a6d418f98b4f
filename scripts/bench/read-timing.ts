/**
 * A simulated chain read by the feed's read timing (lib/feed/read-timing/next-read.ts nextRead): each read
 * starts when the last plan says (never earlier than the feed's read ceiling allows), the node
 * answers halfway through with its newest block that has reached it, and the read ends a round trip
 * after it started. Deterministic (seeded), so a failure replays.
 * Used by tests/unit/feed/read-phase.test.ts and by `npm run bench:read-timing`.
 */
import { MAX_PERIOD_MS, MIN_PERIOD_MS, periodOf } from '../../lib/core/contract/freshness'
import { ceilingAllowsAt } from '../../lib/feed/ceiling'
import type { ReadPhase } from '../../lib/feed/feed-window'
import { nextRead } from '../../lib/feed/read-timing/next-read'

/** The feed's bounds on the read period (lib/core/contract/freshness.ts: 1 s to 60 s). */
export const READ_BOUNDS = { minMs: MIN_PERIOD_MS, maxMs: MAX_PERIOD_MS }

/** A deterministic pseudo-random sequence in [0, 1) (xorshift32). */
export function random(seed: number): () => number {
  let x = seed >>> 0 || 1
  return () => {
    x ^= x << 13
    x >>>= 0
    x ^= x >>> 17
    x ^= x << 5
    x >>>= 0
    return x / 2 ** 32
  }
}

export type SimChain = {
  /** Block n's timestamp as the node reports it, ms. */
  timestampMs(n: number): number
  /** When block n reaches the node, ms on our clock; Infinity for a block never produced (a stalled chain). */
  arrivalMs(n: number): number
}

export type SimRead = { startedAt: number; endedAt: number; head: number }

export type SimOptions = {
  startMs: number
  untilMs: number
  /** The mean interval the window reports, ms. */
  intervalMs: number
  seed: number
  /** Timer lateness, up to this many ms. */
  slackMs?: number
  /** Round trip of a read, ms. */
  rttMs?: [number, number]
  /** Whether a read is answered by a node one block behind (a lagging failover node); never by default. */
  lagging?: (rnd: () => number) => boolean
  /** When the next read starts after one ended; the feed's nextRead by default (another rule, to compare). */
  planner?: (read: SimRead, rnd: () => number) => number
  /**
   * Whether the feed's hard ceiling applies (lib/core/contract/freshness.ts: at most MAX_READS_PER_PERIOD reads
   * start within one period; a read planned sooner starts when the ceiling allows). On by default, as
   * in the feed; off, to see what the read timing alone plans.
   */
  ceiling?: boolean
}

/** Reads the chain from startMs to untilMs as the feed would; block 0 must have arrived by startMs. */
export function simulateReads(chain: SimChain, opts: SimOptions): SimRead[] {
  const rnd = random(opts.seed)
  const [rttLo, rttHi] = opts.rttMs ?? [20, 120]
  if (chain.arrivalMs(0) > opts.startMs) throw new Error('block 0 must have reached the node when the simulation starts')
  const reads: SimRead[] = []
  let phase: ReadPhase | undefined
  let previousHead: number | undefined
  let at = opts.startMs
  let head = 0
  const periodMs = periodOf(opts.intervalMs)
  while (at < opts.untilMs) {
    if (opts.ceiling !== false)
      at = Math.max(
        at,
        ceilingAllowsAt(
          reads.slice(-2).map((r) => r.startedAt),
          periodMs,
        ),
      )
    const startedAt = at + rnd() * (opts.slackMs ?? 5)
    const rtt = rttLo + rnd() * (rttHi - rttLo)
    while (chain.arrivalMs(head + 1) <= startedAt + rtt / 2) head++
    const endedAt = startedAt + rtt
    const seen = head > 0 && opts.lagging?.(rnd) ? head - 1 : head
    reads.push({ startedAt, endedAt, head: seen })
    if (opts.planner) {
      at = opts.planner(reads.at(-1)!, rnd)
      continue
    }
    const plan = nextRead(
      phase,
      {
        startedAt,
        endedAt,
        headNumber: seen,
        headTimestampMs: chain.timestampMs(seen),
        intervalMs: opts.intervalMs,
        previousHead,
        previousHeadTimestampMs: previousHead === undefined ? undefined : chain.timestampMs(previousHead),
      },
      READ_BOUNDS,
    )
    if (!(plan.at > endedAt)) throw new Error(`a read planned at ${plan.at}, not after the last one ended (${endedAt})`)
    phase = plan.phase
    // the feed holds the window it read last, a lagging node's included
    previousHead = seen
    at = plan.at
  }
  return reads
}

/**
 * Per read that found a head newer than any before: how many blocks it moved by (more than one: a
 * block without a read of its own), and how long after the block reached the node the read ended.
 */
export function newHeads(reads: SimRead[], chain: SimChain): { step: number; lagMs: number; head: number }[] {
  const out: { step: number; lagMs: number; head: number }[] = []
  let top = reads[0]?.head ?? 0
  for (const r of reads.slice(1)) {
    if (r.head > top) out.push({ step: r.head - top, head: r.head, lagMs: r.endedAt - chain.arrivalMs(r.head) })
    top = Math.max(top, r.head)
  }
  return out
}

/**
 * How far behind the node the held window is: sampled every `everyMs` from the first read's end to
 * untilMs, the node's head (the newest block that has reached it) minus the head of the window the
 * feed holds (the last read that ended). Returns the share of samples more than one block behind.
 */
export function headLag(reads: SimRead[], chain: SimChain, untilMs: number, everyMs = 100): { behindShare: number; samples: number } {
  let held = -1
  let node = 0
  let i = 0
  let behind = 0
  let samples = 0
  const first = reads[0]
  if (!first) return { behindShare: 0, samples: 0 }
  for (let at = first.endedAt; at < untilMs; at += everyMs) {
    while (i < reads.length && reads[i]!.endedAt <= at) held = reads[i++]!.head
    while (chain.arrivalMs(node + 1) <= at) node++
    samples++
    if (node - held > 1) behind++
  }
  return { behindShare: behind / samples, samples }
}

/** A chain with a block every `stepMs` (timestamps `skewMs` behind our clock), each reaching the node a delay drawn from `delayMs` after its timestamp. */
export function steadyChain(opts: { epochMs: number; stepMs: number; delayMs: [number, number]; seed: number; skewMs?: number }): SimChain {
  const rnd = random(opts.seed)
  const delays: number[] = []
  const delay = (n: number) => {
    while (delays.length <= n) delays.push(opts.delayMs[0] + rnd() * (opts.delayMs[1] - opts.delayMs[0]))
    return delays[n]!
  }
  return {
    timestampMs: (n) => opts.epochMs + n * opts.stepMs - (opts.skewMs ?? 0),
    arrivalMs: (n) => opts.epochMs + n * opts.stepMs + delay(n),
  }
}

/**
 * A real node on a slot chain: a block per `stepMs` slot of the wall clock, each reaching the node
 * 50–300 ms after its slot, a different delay each block (what we measured on 2-s and 1-s chains).
 */
export function realSlotChain(epochMs: number, stepMs: number, seed: number): SimChain {
  return steadyChain({ epochMs, stepMs, delayMs: [50, 300], seed })
}

/**
 * A devnet whose timestamps fall behind the wall clock (anvil started from a genesis in the past):
 * a block every `wallStepMs` of the wall clock (reaching the node a delay drawn from `delayMs`, 5–40
 * ms by default, after it is made), whose timestamps, whole seconds, advance only `timestampStepMs`
 * per block.
 */
export function driftingChain(opts: {
  epochMs: number
  wallStepMs: number
  timestampStepMs: number
  seed: number
  delayMs?: [number, number]
}): SimChain {
  const rnd = random(opts.seed)
  const [lo, hi] = opts.delayMs ?? [5, 40]
  const delays: number[] = []
  const delay = (n: number) => {
    while (delays.length <= n) delays.push(lo + rnd() * (hi - lo))
    return delays[n]!
  }
  // the genesis is a day in the past
  const genesisMs = Math.floor((opts.epochMs - 86_400_000) / 1_000) * 1_000
  return {
    timestampMs: (n) => genesisMs + n * opts.timestampStepMs,
    arrivalMs: (n) => opts.epochMs + n * opts.wallStepMs + delay(n),
  }
}

/**
 * Blocks made at irregular wall-clock gaps drawn from `gapMs`, stamped with whole unix seconds that
 * follow the wall clock but strictly increase (two blocks in one second: the second one a second
 * on), each reaching the node 10–60 ms after it was made.
 */
export function irregularWallChain(epochMs: number, seed: number, gapMs: [number, number] = [500, 3_500]): SimChain {
  const rnd = random(seed)
  const made: number[] = [epochMs]
  const ts: number[] = [Math.floor(epochMs / 1_000) * 1_000]
  const arrived: number[] = [epochMs + 10]
  const grow = (n: number) => {
    while (made.length <= n) {
      const at = made.at(-1)! + gapMs[0] + rnd() * (gapMs[1] - gapMs[0])
      made.push(at)
      ts.push(Math.max(ts.at(-1)! + 1_000, Math.floor(at / 1_000) * 1_000))
      arrived.push(at + 10 + rnd() * 50)
    }
  }
  return {
    timestampMs: (n) => (grow(n), ts[n]!),
    arrivalMs: (n) => (grow(n), arrived[n]!),
  }
}

/**
 * A devnet making a block every second of the wall clock (anvil --block-time 1: whole-second
 * timestamps, each block made 370–430 ms past its second and reaching the node 5–40 ms later); read
 * under load with `loadedDevnetOptions`.
 */
export function loadedDevnetChain(epochMs: number, seed: number): SimChain {
  const rnd = random(seed)
  const made: number[] = []
  const at = (n: number) => {
    while (made.length <= n) made.push(370 + rnd() * 60 + 5 + rnd() * 35)
    return made[n]!
  }
  const second = Math.floor(epochMs / 1_000) * 1_000
  return { timestampMs: (n) => second + n * 1_000, arrivalMs: (n) => second + n * 1_000 + at(n) }
}

/** The service under load (50 connections): timers up to 300 ms late, reads taking 50–500 ms. */
export const loadedDevnetOptions = { slackMs: 300, rttMs: [50, 500] as [number, number] }

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!

/** A 12-s slot chain where each slot is empty with probability `missRate`, blocks reaching the node `delayMs` into their slot. */
function slotChain(epochMs: number, missRate: number, delayMs: number, seed: number): SimChain {
  const rnd = random(seed)
  const slots: number[] = [0]
  const slotOf = (n: number) => {
    while (slots.length <= n) {
      let next = slots.at(-1)! + 1
      while (rnd() < missRate) next++
      slots.push(next)
    }
    return slots[n]!
  }
  return { timestampMs: (n) => epochMs + slotOf(n) * 12_000, arrivalMs: (n) => epochMs + slotOf(n) * 12_000 + delayMs }
}

/** Blocks made on demand: timestamp gaps of 1, 2 or 3 s, each block reaching the node 300 ms after its timestamp. */
export function irregularChain(epochMs: number, seed: number): SimChain {
  const rnd = random(seed)
  const ts: number[] = [epochMs]
  const at = (n: number) => {
    while (ts.length <= n) ts.push(ts.at(-1)! + 1_000 * (1 + Math.floor(rnd() * 3)))
    return ts[n]!
  }
  return { timestampMs: at, arrivalMs: (n) => at(n) + 300 }
}

/** What a run of reads cost and how fresh it kept the window, from block `settle` on. */
export type ReadStats = {
  readsPerBlock: number
  /** Reads per block over blocks 10–40 after the first read's head (the cold start settling). */
  settlingReadsPerBlock: number
  /** Blocks that no read found as the new head (a read found a later one first), and all blocks counted. */
  skipped: number
  blocks: number
  /** How long after each block reached the node the read that found it ended, ms. */
  lagP50Ms: number
  lagP99Ms: number
  /** Share of 100-ms samples with the held window more than one block behind the node. */
  behindShare: number
}

/** Reads per block over blocks (first read's head + from, first read's head + to]: how soon a cold start settles. */
export function readsPerBlockBetween(reads: SimRead[], from: number, to: number): number {
  const base = reads[0]!.head
  const counted = reads.filter((r) => r.head >= base + from && r.head < base + to)
  return counted.length / (to - from)
}

/** Reads per block, skipped blocks, read lag and head lag of a simulated run, counted from the `settle`-th block after the first read's head. */
export function readStats(reads: SimRead[], chain: SimChain, untilMs: number, settle = 20): ReadStats {
  const from = reads[0]!.head + settle
  const heads = newHeads(reads, chain).filter((h) => h.head > from)
  const last = Math.max(...reads.map((r) => r.head))
  const blocks = last - from
  const counted = reads.filter((r) => r.head >= from)
  const lags = heads.map((h) => h.lagMs).sort((a, b) => a - b)
  const settledAt = counted[0]?.startedAt ?? untilMs
  const lateReads = reads.filter((r) => r.endedAt >= settledAt)
  return {
    readsPerBlock: counted.length / Math.max(1, blocks),
    settlingReadsPerBlock: readsPerBlockBetween(reads, 10, 40),
    skipped: heads.reduce((n, h) => n + h.step - 1, 0),
    blocks,
    lagP50Ms: lags.length ? percentile(lags, 0.5) : Number.NaN,
    lagP99Ms: lags.length ? percentile(lags, 0.99) : Number.NaN,
    behindShare: headLag(lateReads, chain, untilMs).behindShare,
  }
}

/** One row of `npm run bench:read-timing`: a simulated chain and how it is read. */
export type ReadTimingCase = {
  name: string
  /** Wall time per block, ms (how long the run lasts: `blocks` of them). */
  stepMs: number
  /** The mean interval the window reports (from timestamps), ms; stepMs by default. */
  meanMs?: number
  rttMs: [number, number]
  slackMs?: number
  chain: (seed: number) => SimChain
  lagging?: number
}

/** Every chain the bench prints, in its order: the clocks measured on the real service, then the older cases. */
export function readTimingCases(epochMs: number): ReadTimingCase[] {
  const steady = (stepMs: number, delayMs: [number, number]) => (seed: number) => steadyChain({ epochMs, stepMs, delayMs, seed })
  return [
    {
      name: '2 s slots, blocks 50–300 ms after their slot',
      stepMs: 2_000,
      chain: (seed) => realSlotChain(epochMs, 2_000, seed),
      rttMs: [20, 120],
    },
    {
      name: '1 s slots, blocks 50–300 ms after their slot',
      stepMs: 1_000,
      chain: (seed) => realSlotChain(epochMs, 1_000, seed),
      rttMs: [20, 120],
    },
    {
      name: 'devnet: 2 s blocks, timestamps +1 s per block (drifting)',
      stepMs: 2_000,
      meanMs: 1_000,
      chain: (seed) => driftingChain({ epochMs, wallStepMs: 2_000, timestampStepMs: 1_000, seed }),
      rttMs: [20, 120],
    },
    {
      name: 'the same devnet, blocks 100–300 ms after their wall slot',
      stepMs: 2_000,
      meanMs: 1_000,
      chain: (seed) => driftingChain({ epochMs, wallStepMs: 2_000, timestampStepMs: 1_000, seed, delayMs: [100, 300] }),
      rttMs: [20, 120],
    },
    {
      name: 'the same devnet, blocks 50–500 ms after their wall slot',
      stepMs: 2_000,
      meanMs: 1_000,
      chain: (seed) => driftingChain({ epochMs, wallStepMs: 2_000, timestampStepMs: 1_000, seed, delayMs: [50, 500] }),
      rttMs: [20, 120],
    },
    {
      name: 'irregular wall gaps 0.5–3.5 s, whole-second timestamps',
      stepMs: 2_000,
      chain: (seed) => irregularWallChain(epochMs, seed),
      rttMs: [20, 120],
    },
    {
      name: 'loaded 1 s devnet: timers up to 300 ms late, 50–500 ms reads',
      stepMs: 1_000,
      chain: (seed) => loadedDevnetChain(epochMs, seed),
      ...loadedDevnetOptions,
    },
    { name: '2 s, blocks 0.9 s after their timestamp, 20–120 ms reads', stepMs: 2_000, chain: steady(2_000, [900, 900]), rttMs: [20, 120] },
    {
      name: 'the same, 2.2 s mean interval (a pause in the window), 2.6 s late',
      stepMs: 2_000,
      meanMs: 2_215,
      chain: steady(2_000, [2_600, 2_600]),
      rttMs: [20, 120],
    },
    {
      name: 'replay node, timestamps 3 years behind',
      stepMs: 2_000,
      chain: (seed) => steadyChain({ epochMs, stepMs: 2_000, delayMs: [400, 400], seed, skewMs: 3 * 365 * 86_400_000 }),
      rttMs: [20, 120],
    },
    { name: '2 s, arrival 0.3–1.2 s after the timestamp', stepMs: 2_000, chain: steady(2_000, [300, 1_200]), rttMs: [20, 120] },
    {
      name: '2 s, 200–600 ms reads, timers up to 40 ms late',
      stepMs: 2_000,
      chain: steady(2_000, [500, 500]),
      rttMs: [200, 600],
      slackMs: 40,
    },
    {
      name: '2 s, one read in five answered by a node a block behind',
      stepMs: 2_000,
      chain: steady(2_000, [900, 900]),
      rttMs: [20, 120],
      lagging: 0.2,
    },
    {
      name: '12 s, arrival 1.5–4 s after the slot, 50–300 ms reads',
      stepMs: 12_000,
      chain: steady(12_000, [1_500, 4_000]),
      rttMs: [50, 300],
    },
    {
      name: '12 s, arrival 1–6 s after the slot, 50–300 ms reads',
      stepMs: 12_000,
      chain: steady(12_000, [1_000, 6_000]),
      rttMs: [50, 300],
    },
    {
      name: '12 s slots, 1% missed, arrival 2.5 s into the slot',
      stepMs: 12_000,
      meanMs: 12_120,
      chain: (seed) => slotChain(epochMs, 0.01, 2_500, seed),
      rttMs: [50, 300],
    },
    {
      name: 'timestamp gaps of 1–3 s (blocks on demand)',
      stepMs: 2_000,
      chain: (seed) => irregularChain(epochMs, seed),
      rttMs: [20, 120],
    },
  ]
}

/** Runs one case over `blocks` blocks' time (seeded by its index) and counts it. */
export function runCase(c: ReadTimingCase, i: number, epochMs: number, blocks: number): ReadStats {
  const chain = c.chain(100 + i)
  const startMs = chain.arrivalMs(3) + 333
  const untilMs = epochMs + blocks * c.stepMs
  const rate = c.lagging
  const reads = simulateReads(chain, {
    startMs,
    untilMs,
    intervalMs: c.meanMs ?? c.stepMs,
    seed: 200 + i,
    rttMs: c.rttMs,
    ...(c.slackMs === undefined ? {} : { slackMs: c.slackMs }),
    ...(rate ? { lagging: (rnd: () => number) => rnd() < rate } : {}),
  })
  return readStats(reads, chain, untilMs)
}

/**
 * The cold start: the case run from `starts` start times spread over one step (the process starts
 * at any point of a block's slot), each over the first 20 blocks after the first read's head.
 * Returns the blocks without a read of their own and the share of 100-ms samples with the window
 * more than one block behind the node, over all starts.
 */
export function coldStart(
  c: ReadTimingCase,
  i: number,
  epochMs: number,
  starts = 16,
): { skipped: number; blocks: number; behindShare: number } {
  let skipped = 0
  let blocks = 0
  let behind = 0
  let samples = 0
  for (let k = 0; k < starts; k++) {
    const chain = c.chain(100 + i)
    const startMs = chain.arrivalMs(3) + 333 + (k * c.stepMs) / starts
    const reads = simulateReads(chain, {
      startMs,
      untilMs: startMs + 24 * c.stepMs,
      intervalMs: c.meanMs ?? c.stepMs,
      seed: 300 + i * starts + k,
      rttMs: c.rttMs,
      ...(c.slackMs === undefined ? {} : { slackMs: c.slackMs }),
      ...(c.lagging ? { lagging: (rnd: () => number) => rnd() < c.lagging! } : {}),
    })
    const last = reads[0]!.head + 20
    const counted = reads.filter((r) => r.head <= last)
    const heads = newHeads(counted, chain)
    skipped += heads.reduce((n, h) => n + h.step - 1, 0)
    blocks += 20
    const untilMs = chain.arrivalMs(last)
    const lag = headLag(counted, chain, untilMs)
    behind += lag.behindShare * lag.samples
    samples += lag.samples
  }
  return { skipped, blocks, behindShare: samples ? behind / samples : 0 }
}

/**
 * How many of `runs` cold starts (each from its own seed and start point) read blocks 10–30 after the
 * first read's head more than `limit` times a block: the tail an average hides.
 */
export function coldStartTail(c: ReadTimingCase, i: number, epochMs: number, runs = 100, limit = 1.1): { over: number; max: number } {
  let over = 0
  let max = 0
  for (let k = 0; k < runs; k++) {
    const chain = c.chain(1_000 + i * 7_919 + k)
    const startMs = chain.arrivalMs(3) + 333 + ((k * 0.37) % 1) * c.stepMs
    const reads = simulateReads(chain, {
      startMs,
      untilMs: startMs + 45 * c.stepMs,
      intervalMs: c.meanMs ?? c.stepMs,
      seed: 5_000 + i * 100_000 + k,
      rttMs: c.rttMs,
      ...(c.slackMs === undefined ? {} : { slackMs: c.slackMs }),
      ...(c.lagging ? { lagging: (rnd: () => number) => rnd() < c.lagging! } : {}),
    })
    const base = reads[0]!.head
    const n = reads.filter((r) => r.head > base + 10 && r.head <= base + 30).length
    max = Math.max(max, n)
    if (n > limit * 20) over++
  }
  return { over, max }
}

/**
 * An anvil-like chain (interval mining: whole-second timestamps, blocks 5–40 ms after they are made)
 * paused for `pauseMs` after block 60 and resumed at a random point of a step, over `runs` seeds:
 * the reads from block 61's arrival up to block 75 (the 15 blocks after the pause), their worst
 * run, how many runs exceed `limit` reads per block, and blocks without a read of their own.
 */
export function afterPause(
  epochMs: number,
  stepMs: number,
  pauseMs: number,
  runs = 100,
  limit = 1.1,
): { over: number; max: number; skipped: number } {
  let over = 0
  let max = 0
  let skipped = 0
  for (let k = 0; k < runs; k++) {
    const rnd = random(777 + k + stepMs + pauseMs)
    const t0 = epochMs + rnd() * 1_000
    const resume = t0 + 60 * stepMs + pauseMs + rnd() * stepMs
    const delays: number[] = []
    const delay = (n: number) => {
      while (delays.length <= n) delays.push(5 + rnd() * 35)
      return delays[n]!
    }
    const made = (n: number) => (n <= 60 ? t0 + n * stepMs : resume + (n - 61) * stepMs)
    const chain: SimChain = { timestampMs: (n) => Math.floor(made(n) / 1_000) * 1_000, arrivalMs: (n) => made(n) + delay(n) }
    const reads = simulateReads(chain, {
      startMs: chain.arrivalMs(3) + 333,
      untilMs: resume + 20 * stepMs,
      intervalMs: stepMs,
      seed: 9_000 + k,
    })
    const n = reads.filter((r) => r.startedAt >= chain.arrivalMs(61) && r.head <= 75).length
    max = Math.max(max, n)
    if (n > limit * 15) over++
    let top = 60
    for (const r of reads) {
      if (r.head > top && r.head <= 75) {
        skipped += r.head - top - 1
        top = r.head
      }
    }
  }
  return { over, max, skipped }
}
