import { describe, expect, test } from 'vitest'
import { nextRead, type ReadPhase } from '@/lib/feed/read-timing'
import {
  irregularChain,
  newHeads,
  READ_BOUNDS,
  simulateReads,
  steadyChain,
  type SimChain,
  type SimOptions,
} from '@/scripts/bench/read-timing'

const BOUNDS = READ_BOUNDS
type Chain = SimChain
// the feed's reads of a simulated chain (scripts/bench/read-timing.ts; it throws on a plan not after its read)
const simulate = simulateReads

// a 2-s chain like anvil's: whole-second timestamps, blocks reaching the node 0.9 s after theirs
const EPOCH = 1_700_000_000_000
const anvil = (delayMs: number, skewMs = 0): Chain =>
  steadyChain({ epochMs: EPOCH, stepMs: 2_000, delayMs: [delayMs, delayMs], seed: 1, skewMs })

/** 1,000 blocks of a 2-s chain read from 4.3 s in, with the given seed and options. */
const twoSecondReads = (chain: Chain, seed: number, extra: Partial<SimOptions> = {}) =>
  simulate(chain, { startMs: EPOCH + 4_333, untilMs: EPOCH + 2_000 * 1_000, intervalMs: 2_000, seed, ...extra })

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
      const reads = twoSecondReads(chain, seed, { intervalMs, ...(slow ? { rttMs: [200, 600] as [number, number], slackMs: 40 } : {}) })
      const heads = newHeads(reads, chain)
      // the first reads find the phase (probes of the bracket's middle)
      const settled = heads.filter((h) => h.head > 20)
      expect(settled.length).toBeGreaterThan(950)
      expect(settled.every((h) => h.step === 1)).toBe(true)
      // cost: about one read per block (a probe that comes too early is read again, about once per 64 blocks)
      const lastHead = reads.at(-1)!.head
      const readsAfter = reads.filter((r) => r.head > 20).length
      expect(readsAfter / (lastHead - 20)).toBeLessThan(1.05)
      // latency: the read that finds a block starts at the bracket's top (its width at most 1/16
      // interval and a read's duration past the arrival), and ends a round trip later
      const [rttHi, slack] = slow ? [600, 40] : [120, 5]
      const worstLag = Math.max(...settled.map((h) => h.lagMs))
      expect(worstLag).toBeLessThan(Math.max(2_000 / 16, rttHi + 2_000 / 64) + rttHi + slack)
    },
  )

  test('behavior: reading one interval after the last read ended (the rule before) skips blocks on the same chain', () => {
    // the control: the same simulation with the rule before (one interval after the read ended, plus
    // the stream clock's look period of up to a quarter interval) misses blocks, so the test above can fail
    const chain = anvil(900)
    const reads = twoSecondReads(chain, 9, { planner: (r, rnd) => r.endedAt + 2_000 + rnd() * 500 })
    const skipped = newHeads(reads, chain).filter((h) => h.step > 1).length
    expect(skipped).toBeGreaterThan(50)
  })

  test('behavior: a block later than its bracket by over a quarter interval still gets its own read', () => {
    // every 50th block reaches the node 1.2 s later than the others
    const chain: Chain = { timestampMs: (n) => EPOCH + n * 2_000, arrivalMs: (n) => EPOCH + n * 2_000 + 900 + (n % 50 === 0 ? 1_200 : 0) }
    const reads = simulate(chain, { startMs: EPOCH + 2_333, untilMs: EPOCH + 2_000 * 1_000, intervalMs: 2_000, seed: 21 })
    const heads = newHeads(reads, chain).filter((h) => h.head > 20)
    expect(heads.every((h) => h.step === 1)).toBe(true)
    // each late block costs a few reads (every 1/16 interval for a quarter, then every quarter)
    const blocks = reads.at(-1)!.head - 20
    expect(reads.filter((r) => r.head > 20).length - blocks).toBeLessThanOrEqual(8 * Math.ceil(blocks / 50))
  })

  test('behavior: a chain without a steady step (blocks on demand, gaps of 1–3 s) is read once per interval, never in a loop', () => {
    const chain = irregularChain(EPOCH, 31)
    const reads = simulate(chain, { startMs: EPOCH + 400, untilMs: chain.timestampMs(1_000), intervalMs: 2_000, seed: 32 })
    const late = reads.filter((r) => r.startedAt > EPOCH + 60_000)
    const span = late.at(-1)!.startedAt - late[0]!.startedAt
    // the rule before: one read per interval (plus the read's own time)
    expect(late.length).toBeLessThanOrEqual(span / 2_000 + 1)
    expect(late.length).toBeGreaterThanOrEqual(span / 2_200)
  })

  test("behavior: a lagging node's answers (one block behind, on one read in five) neither stop the reads nor loop them", () => {
    const chain = anvil(900)
    const reads = twoSecondReads(chain, 41, { lagging: (rnd) => rnd() < 0.2 })
    const heads = newHeads(reads, chain).filter((h) => h.head > 20)
    const blocks = reads.at(-1)!.head - 20
    // a read answered by the lagging node is spent; the phase is kept, so the block is read soon after
    expect(reads.filter((r) => r.head > 20).length / blocks).toBeLessThan(1.5)
    expect(heads.filter((h) => h.step > 1).length).toBeLessThanOrEqual(blocks * 0.02)
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

  test('behavior: a 12-s chain with missed slots: every block read once, a missed slot costs at most seven extra reads', () => {
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
    expect(extra).toBeLessThanOrEqual(7 * missed.size + Math.ceil(blocks / 60))
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

  test('errors: a phase that is not whole (from JSON elsewhere) starts over; a lagging answer forgets when the last read started', () => {
    const read = {
      startedAt: EPOCH + 2_500,
      endedAt: EPOCH + 2_520,
      headNumber: 11,
      headTimestampMs: EPOCH + 2_000,
      intervalMs: 2_000,
      previousHead: 10,
      previousHeadTimestampMs: EPOCH,
    }
    const broken = { loMs: null, hiMs: 900, stepMs: 2_000, lastStartedAt: EPOCH, overdue: 0, irregular: 0 } as unknown as ReadPhase
    const plan = nextRead(broken, read, BOUNDS)
    expect(Number.isFinite(plan.at)).toBe(true)
    expect(plan.at).toBeGreaterThan(read.endedAt)
    expect(plan.phase).toEqual(nextRead(undefined, read, BOUNDS).phase)
    const phase: ReadPhase = { loMs: 100, hiMs: 900, stepMs: 2_000, lastStartedAt: EPOCH + 2_100, overdue: 0, irregular: 0 }
    const lagging = nextRead(phase, { ...read, headNumber: 9, headTimestampMs: EPOCH - 2_000 }, BOUNDS)
    expect(lagging.phase).toEqual({ ...phase, lastStartedAt: 0 })
  })

  test('behavior: a read that finds no new head before the bracket has passed narrows it; past it, the block is looked for again soon', () => {
    const phase: ReadPhase = { loMs: 100, hiMs: 900, stepMs: 2_000, lastStartedAt: EPOCH, overdue: 0, irregular: 0 }
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
