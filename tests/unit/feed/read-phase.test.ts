import { describe, expect, test } from 'vitest'
import { nextRead, type ReadPhase } from '@/lib/feed/rules'

const BOUNDS = { minMs: 1_000, maxMs: 60_000 }

/** A deterministic pseudo-random sequence in [0, 1) (xorshift), so a failure can be replayed. */
function random(seed: number): () => number {
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

type Chain = {
  /** Block n's timestamp as the node reports it, ms (whole seconds, as in block headers). */
  timestampMs(n: number): number
  /** When block n reaches the node, ms on our clock; Infinity for a block never produced (a stalled chain). */
  arrivalMs(n: number): number
}

/**
 * Runs the reader the feed runs: each read starts when the last plan says, the node answers halfway
 * through with its newest block, and the read ends a round trip after it started. Returns what each
 * read saw.
 */
function simulate(
  chain: Chain,
  opts: { startMs: number; untilMs: number; intervalMs: number; seed: number; slackMs?: number; rttMs?: [number, number] },
) {
  const rnd = random(opts.seed)
  const [rttLo, rttHi] = opts.rttMs ?? [20, 120]
  const reads: { startedAt: number; endedAt: number; head: number }[] = []
  let phase: ReadPhase | undefined
  let previousHead: number | undefined
  let at = opts.startMs
  let head = 0
  expect(chain.arrivalMs(0)).toBeLessThanOrEqual(at)
  while (at < opts.untilMs) {
    const startedAt = at + rnd() * (opts.slackMs ?? 5)
    const rtt = rttLo + rnd() * (rttHi - rttLo)
    const answeredAt = startedAt + rtt / 2
    while (chain.arrivalMs(head + 1) <= answeredAt) head++
    const endedAt = startedAt + rtt
    reads.push({ startedAt, endedAt, head })
    const plan = nextRead(
      phase,
      {
        startedAt,
        endedAt,
        headNumber: head,
        headTimestampMs: chain.timestampMs(head),
        intervalMs: opts.intervalMs,
        previousHead,
        previousHeadTimestampMs: previousHead === undefined ? undefined : chain.timestampMs(previousHead),
      },
      BOUNDS,
    )
    expect(plan.at).toBeGreaterThan(endedAt)
    phase = plan.phase
    previousHead = head
    at = plan.at
  }
  return reads
}

/** Per new head a read found: how many blocks it moved by, and how long after the block's arrival the read ended. */
function newHeads(reads: { endedAt: number; head: number }[], chain: Chain) {
  const out: { step: number; lagMs: number; head: number }[] = []
  for (let i = 1; i < reads.length; i++) {
    const step = reads[i]!.head - reads[i - 1]!.head
    if (step > 0) out.push({ step, head: reads[i]!.head, lagMs: reads[i]!.endedAt - chain.arrivalMs(reads[i]!.head) })
  }
  return out
}

// a 2-s chain like anvil's: whole-second timestamps, blocks reaching the node 0.9 s after theirs
const EPOCH = 1_700_000_000_000
const anvil = (delayMs: number, skewMs = 0): Chain => ({
  timestampMs: (n) => EPOCH + n * 2_000 - skewMs,
  arrivalMs: (n) => EPOCH + n * 2_000 + delayMs,
})

describe('nextRead: one read per new block, soon after it lands', () => {
  test.each([
    ['blocks 0.9 s after their timestamp', anvil(900), 1],
    ['blocks 0.1 s after their timestamp', anvil(100), 2],
    ['a replay node serving 2022 timestamps (a constant clock skew of years)', anvil(400, 3 * 365 * 86_400_000), 3],
    ['the same, read slowly (0.2–0.6 s round trips) with late timers', anvil(1_500), 4],
    // the devnet: its seeded history ends with a pause, so the window's mean interval is 2.2 s for 2-s blocks
    ['a mean interval longer than the step (a pause in the window)', anvil(2_400), 5, 2_215],
  ])(
    'behavior: %s: after the first blocks, every block is read once, within a fraction of an interval',
    (_, chain, seed, intervalMs = 2_000) => {
      const slow = seed === 4
      const reads = simulate(chain, {
        startMs: EPOCH + 4_333,
        untilMs: EPOCH + 2_000 * 1_000,
        intervalMs,
        seed,
        ...(slow ? { rttMs: [200, 600] as [number, number], slackMs: 40 } : {}),
      })
      const heads = newHeads(reads, chain)
      // the first reads find the phase (the offset moves earlier by 1/8 interval per block until a read is too early)
      const settled = heads.filter((h) => h.head > 20)
      expect(settled.length).toBeGreaterThan(950)
      expect(settled.every((h) => h.step === 1)).toBe(true)
      // cost: about one read per block (a read that comes too early is retried once per ~70 blocks)
      const lastHead = reads.at(-1)!.head
      const readsAfter = reads.filter((r) => r.head > 20).length
      expect(readsAfter / (lastHead - 20)).toBeLessThan(1.05)
      // latency: the read that finds a block starts within a retry step (1/16 interval) of its
      // arrival, or as soon as the read before it ended (1/64 interval after it), and ends a round trip later
      const [rttHi, slack] = slow ? [600, 40] : [120, 5]
      const worstLag = Math.max(...settled.map((h) => h.lagMs))
      expect(worstLag).toBeLessThan(Math.max(2_000 / 16, rttHi + 2_000 / 64) + rttHi + slack)
    },
  )

  test('behavior: reading one interval after the last read ended (the rule before) skips blocks on the same chain', () => {
    // the control: the same simulation with the old rule misses blocks, so the test above can fail
    const chain = anvil(900)
    const rnd = random(9)
    let head = 0
    let at = EPOCH + 333
    const steps: number[] = []
    while (at < EPOCH + 2_000 * 1_000) {
      const rtt = 20 + rnd() * 100
      let h = head
      while (chain.arrivalMs(h + 1) <= at + rtt / 2) h++
      if (h > head) steps.push(h - head)
      head = h
      at = at + rtt + 2_000 + rnd() * 500 // + the stream clock's look period (a quarter interval)
    }
    expect(steps.some((s) => s > 1)).toBe(true)
  })

  test('behavior: a stalled chain is read about once per interval, not in a tight loop', () => {
    // blocks up to 100, then none
    const chain: Chain = { timestampMs: (n) => EPOCH + n * 2_000, arrivalMs: (n) => (n <= 100 ? EPOCH + n * 2_000 + 500 : Infinity) }
    const reads = simulate(chain, { startMs: EPOCH + 1_000, untilMs: EPOCH + 400_000, intervalMs: 2_000, seed: 5 })
    const stalled = reads.filter((r) => r.startedAt > EPOCH + 220_000)
    // 180 s of a stalled chain: one read per 2-s interval and a few retries after the last block
    expect(stalled.length).toBeGreaterThan(80)
    expect(stalled.length).toBeLessThanOrEqual(92)
  })

  test('behavior: a 12-s chain with missed slots: every block read once, a missed slot costs at most four extra reads', () => {
    const missed = new Set([37, 38, 120, 121, 122, 200, 333, 500, 640, 777])
    // block n is in slot s(n): produced slots only
    const slots: number[] = []
    for (let s = 0; slots.length < 1_000; s++) if (!missed.has(s)) slots.push(s)
    const chain: Chain = { timestampMs: (n) => EPOCH + slots[n]! * 12_000, arrivalMs: (n) => EPOCH + slots[n]! * 12_000 + 2_500 }
    const reads = simulate(chain, { startMs: EPOCH + 7_000, untilMs: EPOCH + slots[990]! * 12_000, intervalMs: 12_000, seed: 6 })
    const heads = newHeads(reads, chain).filter((h) => h.head > 20)
    expect(heads.every((h) => h.step === 1)).toBe(true)
    const blocks = reads.at(-1)!.head - 20
    const extra = reads.filter((r) => r.head > 20).length - blocks
    expect(extra).toBeLessThanOrEqual(4 * missed.size + Math.ceil(blocks / 60))
  })

  test('behavior: chains with blocks under a second or over a minute keep the period rule', () => {
    const read = { startedAt: EPOCH, endedAt: EPOCH + 50, headNumber: 10, headTimestampMs: EPOCH - 100, intervalMs: 250, previousHead: 9 }
    expect(nextRead(undefined, read, BOUNDS)).toEqual({ at: EPOCH + 50 + 1_000 })
    expect(nextRead(undefined, { ...read, intervalMs: 120_000 }, BOUNDS)).toEqual({ at: EPOCH + 50 + 60_000 })
  })

  test('behavior: from its first read, a process reads every block of a 2-s chain (the devnet after its seeded history), probing the phase', () => {
    // seeded history up to block 520, then a 16-s pause, then live blocks every 2 s reaching the node
    // 2.6 s after their (lagging) timestamps
    const pause = 16_000
    const chain: Chain = {
      timestampMs: (n) => EPOCH + n * 2_000 + (n > 520 ? pause : 0),
      arrivalMs: (n) => (n <= 520 ? EPOCH : EPOCH + n * 2_000 + pause + 2_600),
    }
    for (const [seed, startMs] of [
      [11, EPOCH + 1_042_000],
      [12, EPOCH + 1_042_000 + 1_990],
      [13, EPOCH + 1_042_000 + 2_550],
      [14, EPOCH + 1_060_000 + 2_590],
    ] as const) {
      const reads = simulate(chain, { startMs, untilMs: startMs + 400_000, intervalMs: 2_215, seed })
      const heads = newHeads(reads, chain).filter((x) => x.head > 520)
      expect(
        heads.every((x) => x.step === 1),
        `start ${startMs - EPOCH}`,
      ).toBe(true)
      // the probes of the first live blocks cost a few reads, then one per block
      const live = reads.filter((r) => r.head > 521)
      expect(live.length - (live.at(-1)!.head - 521)).toBeLessThanOrEqual(8)
      // while the chain pauses, about one read per interval (and the first probes)
      const paused = reads.filter((r) => r.head === 520).length
      expect(paused).toBeLessThanOrEqual(Math.max(0, chain.arrivalMs(521) - startMs) / 2_000 + 10)
    }
  })

  test('behavior: a read that finds no new head before the bracket has passed narrows it; past it, the block is looked for again soon', () => {
    const phase: ReadPhase = { loMs: 100, hiMs: 900, stepMs: 2_000, lastStartedAt: EPOCH, overdue: 0 }
    const read = { endedAt: 0, headNumber: 10, headTimestampMs: EPOCH, intervalMs: 2_000, previousHead: 10, previousHeadTimestampMs: EPOCH }
    // a probe at +2.5 s (block 11 was due at +2.1…2.9 s): it had not arrived, the bracket is now (500, 900]
    const early = nextRead(phase, { ...read, startedAt: EPOCH + 2_500, endedAt: EPOCH + 2_520 }, BOUNDS)
    expect(early.phase).toMatchObject({ overdue: 0 })
    expect(early.phase!.loMs).toBeCloseTo(500, 0)
    expect(early.at).toBeCloseTo(EPOCH + 2_000 + (early.phase!.loMs + early.phase!.hiMs) / 2, 0)
    // a read at +3 s: past the bracket, the block is late: looked for 1/16 step later
    const late = nextRead(phase, { ...read, startedAt: EPOCH + 3_000, endedAt: EPOCH + 3_020 }, BOUNDS)
    expect(late.phase).toMatchObject({ overdue: 1 })
    expect(late.at).toBe(EPOCH + 3_000 + 125)
  })
})
