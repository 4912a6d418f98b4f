/**
 * A simulated chain read by the feed's read timing (lib/feed/rules.ts nextRead): each read starts
 * when the last plan says, the node answers halfway through with its newest block that has reached
 * it, and the read ends a round trip after it started. Deterministic (seeded), so a failure replays.
 * Used by tests/unit/feed/read-phase.test.ts and by `npm run bench:read-timing`.
 */
import { MAX_PERIOD_MS, MIN_PERIOD_MS } from '../../lib/core/freshness'
import { nextRead, type ReadPhase } from '../../lib/feed/read-timing'

/** The feed's bounds on the read period (lib/feed/fee-window.ts: 1 s to 60 s). */
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
  while (at < opts.untilMs) {
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

/** `npm run bench:read-timing`: reads per block, skipped blocks and delay after each block, per simulated chain. */
export function printReadTimingTable(): void {
  const epochMs = 1_700_000_000_000
  const blocks = 2_000
  type Case = {
    name: string
    stepMs: number
    meanMs?: number
    rttMs: [number, number]
    chain: (seed: number) => SimChain
    lagging?: number
  }
  const steady = (stepMs: number, delayMs: [number, number]) => (seed: number) => steadyChain({ epochMs, stepMs, delayMs, seed })
  const cases: Case[] = [
    { name: '2 s, blocks 0.9 s after their timestamp, 20–120 ms reads', stepMs: 2_000, chain: steady(2_000, [900, 900]), rttMs: [20, 120] },
    {
      name: 'the same, 2.2 s mean interval (a pause in the window), 2.6 s late',
      stepMs: 2_000,
      meanMs: 2_215,
      chain: steady(2_000, [2_600, 2_600]),
      rttMs: [20, 120],
    },
    { name: '2 s, arrival 0.3–1.2 s after the timestamp', stepMs: 2_000, chain: steady(2_000, [300, 1_200]), rttMs: [20, 120] },
    { name: '2 s, 200–600 ms reads', stepMs: 2_000, chain: steady(2_000, [500, 500]), rttMs: [200, 600] },
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
      name: 'gaps of 1–3 s (blocks on demand): the rule before',
      stepMs: 2_000,
      chain: (seed) => irregularChain(epochMs, seed),
      rttMs: [20, 120],
    },
  ]
  console.log(`${blocks} blocks' time per chain; reads from the feed's first read on (its first probes included)\n`)
  console.log('| chain | reads per block | blocks without a read of their own | read end after the block reached the node, p50 / p99 ms |')
  console.log('|---|---|---|---|')
  cases.forEach((c, i) => {
    const chain = c.chain(100 + i)
    const startMs = chain.arrivalMs(3) + 333
    const rate = c.lagging
    const reads = simulateReads(chain, {
      startMs,
      untilMs: epochMs + blocks * c.stepMs,
      intervalMs: c.meanMs ?? c.stepMs,
      seed: 200 + i,
      rttMs: c.rttMs,
      ...(rate ? { lagging: (rnd: () => number) => rnd() < rate } : {}),
    })
    const heads = newHeads(reads, chain)
    const span = Math.max(...reads.map((r) => r.head)) - reads[0]!.head
    const skipped = heads.reduce((n, h) => n + h.step - 1, 0)
    const lags = heads.map((h) => h.lagMs).sort((a, b) => a - b)
    console.log(
      `| ${c.name} | ${(reads.length / span).toFixed(3)} | ${skipped} of ${span} | ${Math.round(percentile(lags, 0.5))} / ${Math.round(percentile(lags, 0.99))} |`,
    )
  })
}
