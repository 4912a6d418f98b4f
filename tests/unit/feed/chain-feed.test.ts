// One chain's feed on literal clocks: fake timers drive the feed's own timer, the reads' durations
// and the clients; the node is a simulated chain whose blocks reach it at varying delays.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { ReadFeeWindowParameters } from '@/lib/upstream/read-from-url'
import type { FeeWindow } from '@/lib/core/types'
import { periodOf } from '@/lib/core/contract/freshness'
import { makeWindow } from '../../support/windows'
import { feedSettings } from '../../support/feed'
import { random } from '@/scripts/bench/read-timing'

vi.mock('next/cache', () => ({ unstable_cache: <T>(fn: T) => fn }))
const { ChainFeed } = await import('@/lib/feed/chain-feed')
const { layeredStore } = await import('@/lib/feed/window-store')

const T0 = 1_800_000_000_000

/** A chain with a block every `stepMs` on the wall clock, block n reaching the node `delay(n)` after its slot. */
function simChain(opts: { stepMs: number; delayMs: [number, number]; seed?: number; stampStepMs?: number }) {
  const rnd = random(opts.seed ?? 7)
  const delays: number[] = []
  const delay = (n: number) => {
    while (delays.length <= n) delays.push(opts.delayMs[0] + rnd() * (opts.delayMs[1] - opts.delayMs[0]))
    return delays[n]!
  }
  const arrival = (n: number) => T0 + n * opts.stepMs + delay(n)
  /** The node's head at time t. */
  const headAt = (t: number) => {
    let n = Math.max(0, Math.floor((t - T0) / opts.stepMs) - 1)
    while (arrival(n + 1) <= t) n++
    while (n > 0 && arrival(n) > t) n--
    return n
  }
  const timestampMs = (n: number) => T0 + n * (opts.stampStepMs ?? opts.stepMs)
  return { headAt, arrival, timestampMs, stepMs: opts.stepMs, stampStepMs: opts.stampStepMs }
}

type Sim = ReturnType<typeof simChain>

/** The node: each read takes `readMs` and answers the head as of halfway through. */
function node(chain: Sim, readMs: () => number) {
  const reads: number[] = []
  const read = async (_: ReadFeeWindowParameters): Promise<FeeWindow> => {
    const started = Date.now()
    reads.push(started)
    const ms = readMs()
    await new Promise((r) => setTimeout(r, ms / 2))
    const head = chain.headAt(Date.now())
    await new Promise((r) => setTimeout(r, ms / 2))
    const base = makeWindow({ baseFees: [1n, 1n], next: 1n, intervalMs: chain.stampStepMs ?? chain.stepMs })
    return {
      ...base,
      headNumber: head,
      oldestBlock: head - 1,
      headTimestamp: Math.floor(chain.timestampMs(head) / 1000),
      fetchedAt: Date.now(),
    }
  }
  return { read, reads }
}

function feedOf(
  chain: Sim,
  over: Parameters<typeof feedSettings>[0] = {},
  readMs = () => 30,
  plan?: ConstructorParameters<typeof ChainFeed>[1]['plan'],
) {
  const n = node(chain, readMs)
  const feed = new ChainFeed(
    { id: 1, name: 'sim', rpcUrls: ['http://127.0.0.1:1'] },
    { settings: feedSettings({ maxHeadAgeMs: 0, ...over }), store: layeredStore([]), read: n.read, ...(plan ? { plan } : {}) },
  )
  return { feed, reads: n.reads }
}

/** One request, the fake clock run until it is answered (the feed may wait for a due read). */
async function answerOf(feed: InstanceType<typeof ChainFeed>, opts: { warm?: boolean } = {}) {
  const got = feed.get(opts)
  let settled = false
  void got.finally(() => (settled = true))
  while (!settled) await vi.advanceTimersByTimeAsync(5)
  return got
}

/** A client asking every `everyMs` for `forMs`: per answer, how many blocks it is behind the node's head, whether stale, and how long it waited. */
async function poll(feed: InstanceType<typeof ChainFeed>, chain: Sim, everyMs: number, forMs: number) {
  const answers: { behind: number; stale: boolean; waitedMs: number }[] = []
  const end = Date.now() + forMs
  while (Date.now() < end) {
    const asked = Date.now()
    const answer = await answerOf(feed)
    answers.push({ behind: chain.headAt(asked) - answer.window.headNumber, stale: answer.stale, waitedMs: Date.now() - asked })
    await vi.advanceTimersByTimeAsync(Math.max(0, asked + everyMs - Date.now()))
  }
  return answers
}

beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(T0 + 10 * 2_000 + 500)
})
afterEach(() => {
  vi.useRealTimers()
})

describe('a chain feed: fresh for every client pattern while the node is healthy', () => {
  test.each([
    ['every 10 s on 2-s blocks', 2_000, 10_000],
    ['every 15 s on 2-s blocks', 2_000, 15_000],
    ['every 8 s on 1-s blocks', 1_000, 8_000],
    ['every 200 ms on 2-s blocks', 2_000, 200],
    ['every 60 s on 12-s blocks', 12_000, 60_000],
  ])('behavior: a client asking %s gets the head or the block before it, never marked stale', async (_, stepMs, everyMs) => {
    const chain = simChain({ stepMs, delayMs: [50, 300] })
    vi.setSystemTime(T0 + 10 * stepMs + 500)
    const { feed, reads } = feedOf(chain)
    const forMs = Math.max(150 * stepMs, 6 * everyMs)
    const answers = await poll(feed, chain, everyMs, forMs)
    // the first answer waits for the cold read; every answer after it is current
    expect(answers.slice(1).filter((a) => a.behind > 1)).toEqual([])
    expect(answers.filter((a) => a.stale)).toEqual([])
    // at most about one read per block while warm, once the read timing has found the blocks' phase
    const settled = reads[0]! + 20 * stepMs
    const blocks = chain.headAt(Date.now()) - chain.headAt(settled)
    expect(reads.filter((r) => r >= settled).length / blocks).toBeLessThanOrEqual(1.1)
    feed.stop()
  })

  test('behavior: a client every 8 s on 1-s blocks sees a new block each time', async () => {
    const chain = simChain({ stepMs: 1_000, delayMs: [50, 300] })
    const { feed } = feedOf(chain)
    const seen: number[] = []
    for (let i = 0; i < 8; i++) {
      seen.push((await answerOf(feed)).window.headNumber)
      await vi.advanceTimersByTimeAsync(8_000)
    }
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]!)
    feed.stop()
  })
})

describe('a chain feed: stale means old or failing, never a late block', () => {
  /** 2-s blocks 50–300 ms late, but block 21 comes `lateMs` after its slot (a sequencer's hiccup, a devnet's pause). */
  function lateBlockChain(lateMs: number): Sim {
    const base = simChain({ stepMs: 2_000, delayMs: [50, 300] })
    const arrival = (n: number) => (n < 21 ? base.arrival(n) : base.arrival(n) + lateMs)
    const headAt = (t: number) => {
      let n = 0
      while (arrival(n + 1) <= t) n++
      return n
    }
    return { ...base, arrival, headAt }
  }

  test.each([
    ['every second', 1_000],
    ['every 15 s', 15_000],
  ])(
    "behavior: a client asking %s while block 21 comes 12 s late gets the node's head each time, never marked stale",
    async (_, everyMs) => {
      const chain = lateBlockChain(12_000)
      const { feed } = feedOf(chain)
      const answers = await poll(feed, chain, everyMs, 60_000)
      // the node sat at block 20 for 12 s of them, and every read said so
      expect(chain.headAt(Date.now())).toBeGreaterThan(25)
      expect(answers.slice(1).filter((a) => a.behind > 1)).toEqual([])
      expect(answers.filter((a) => a.stale)).toEqual([])
      feed.stop()
    },
  )

  test('behavior: while block 21 is late and the reads fail, answers are the held window marked stale', async () => {
    const chain = lateBlockChain(12_000)
    const n = node(chain, () => 30)
    const failing = async (p: ReadFeeWindowParameters) => {
      if (chain.headAt(Date.now()) === 20 && Date.now() > chain.arrival(20) + 3_000) throw new Error('node down')
      return n.read(p)
    }
    const feed = new ChainFeed(
      { id: 1, name: 'sim', rpcUrls: ['http://127.0.0.1:1'] },
      { settings: feedSettings({ maxHeadAgeMs: 0 }), store: layeredStore([]), read: failing },
    )
    await answerOf(feed)
    await vi.advanceTimersByTimeAsync(Math.max(0, chain.arrival(20) + 6_000 - Date.now()))
    const answer = await answerOf(feed)
    expect(answer.window.headNumber).toBe(20)
    expect(answer.stale).toBe(true)
    feed.stop()
  })

  test.each([
    ['every 15 s', 15_000],
    ['every 300 ms', 300],
  ])(
    "behavior: on a devnet stamping 4-s blocks 1 s apart, read in 1.2 s each, a client asking %s gets no stale mark once the blocks' wall-clock pace is known (staleness counts its periods, not the stamps')",
    async (_, everyMs) => {
      const chain = simChain({ stepMs: 4_000, delayMs: [5, 40], stampStepMs: 1_000, seed: 3 })
      // reads longer than FEED_WAIT_MS: a request past the window's next read is answered from it at once
      const { feed } = feedOf(chain, {}, () => 1_200)
      const first = Date.now()
      const answers = await poll(feed, chain, everyMs, 240_000)
      expect(answers.length).toBeGreaterThan(15)
      expect(answers.slice(1).filter((a) => a.behind > 1)).toEqual([])
      // the pace is the median over the last heads taken (at least 5): 30 s in, it is known
      const settled = answers.filter((_, k) => k * everyMs > 30_000)
      expect(settled.filter((a) => a.stale)).toEqual([])
      expect(Date.now() - first).toBeGreaterThanOrEqual(240_000)
      feed.stop()
    },
  )
})

describe('a chain feed: the warm period', () => {
  test('behavior: read on its own while warm, at most about once per block; no reads once FEED_WARM_SECONDS have passed since the last request', async () => {
    const chain = simChain({ stepMs: 2_000, delayMs: [50, 300] })
    const { feed, reads } = feedOf(chain, { warmMs: 60_000 })
    const asked = Date.now()
    await poll(feed, chain, 1_000, 1_000) // one request
    const first = reads.length
    const from = chain.headAt(Date.now())
    await vi.advanceTimersByTimeAsync(asked + 59_000 - Date.now())
    const warmReads = reads.length - first
    const blocks = chain.headAt(Date.now()) - from
    // ~29 blocks in the warm minute: a read each, and the timing's first few probes
    expect(warmReads).toBeGreaterThanOrEqual(blocks)
    expect(warmReads).toBeLessThanOrEqual(Math.ceil(1.1 * blocks) + 4)
    expect(feed.warm()).toBe(true)
    await vi.advanceTimersByTimeAsync(2_000)
    expect(feed.warm()).toBe(false)
    const after = reads.length
    await vi.advanceTimersByTimeAsync(120_000)
    expect(reads.length).toBe(after)
  })

  test('behavior: a readiness probe (warm: false) reads a due window but does not warm the chain', async () => {
    const chain = simChain({ stepMs: 2_000, delayMs: [50, 300] })
    const { feed, reads } = feedOf(chain, { warmMs: 60_000 })
    const probe = await answerOf(feed, { warm: false })
    expect(probe.window.headNumber).toBeGreaterThanOrEqual(chain.headAt(Date.now()) - 1)
    expect(feed.warm()).toBe(false)
    await vi.advanceTimersByTimeAsync(30_000)
    expect(reads.length).toBe(1)
  })

  test('behavior: a subscriber keeps the chain warm, and the warm period runs from when it leaves', async () => {
    const chain = simChain({ stepMs: 2_000, delayMs: [50, 300] })
    const { feed, reads } = feedOf(chain, { warmMs: 10_000 })
    const events: number[] = []
    const leave = feed.subscribe(() => events.push(feed.held()?.headNumber ?? -1))
    await vi.advanceTimersByTimeAsync(60_000)
    expect(events.length).toBeGreaterThanOrEqual(25)
    leave()
    await vi.advanceTimersByTimeAsync(9_000)
    expect(feed.warm()).toBe(true)
    await vi.advanceTimersByTimeAsync(2_000)
    const after = reads.length
    await vi.advanceTimersByTimeAsync(60_000)
    expect(reads.length).toBe(after)
  })

  test('behavior: FEED_WARM_SECONDS=0 (as on Vercel: nothing runs between requests): no reads between requests, and a request past its window waits for the read and gets the head', async () => {
    const chain = simChain({ stepMs: 2_000, delayMs: [50, 300] })
    const { feed, reads } = feedOf(chain, { warmMs: 0 })
    const answers = await poll(feed, chain, 10_000, 60_000)
    expect(reads.length).toBe(answers.length)
    expect(answers.filter((a) => a.behind > 0 || a.stale)).toEqual([])
  })
})

describe('a chain feed: bounds', () => {
  test('behavior: a slow provider (3-s reads) holds no request: answers come at once from the window held', async () => {
    const chain = simChain({ stepMs: 2_000, delayMs: [50, 300] })
    let readMs = 30
    const { feed } = feedOf(chain, {}, () => readMs)
    await poll(feed, chain, 500, 4_000)
    readMs = 3_000
    const answers = await poll(feed, chain, 100, 30_000)
    // the first slow read is waited for at most FEED_WAIT_MS' bound for a 30-ms read (2 × 30 + 50 ms);
    // once a read has taken 3 s, none is waited for
    expect(Math.max(...answers.map((a) => a.waitedMs))).toBeLessThanOrEqual(115)
    expect(answers.slice(40).every((a) => a.waitedMs <= 5)).toBe(true)
  })

  test('behavior: the read ceiling holds whatever the read timing believes: never more than two reads per period', async () => {
    const chain = simChain({ stepMs: 2_000, delayMs: [50, 300] })
    // a timing that wants to read again the moment a read ends
    const { feed, reads } = feedOf(
      chain,
      {},
      () => 30,
      (_, read) => ({ at: read.endedAt + 1 }),
    )
    await poll(feed, chain, 50, 30_000)
    const period = periodOf(2_000)
    for (let i = 2; i < reads.length; i++) expect(reads[i]! - reads[i - 2]!).toBeGreaterThanOrEqual(period)
    expect(reads.length).toBeGreaterThan(20)
    feed.stop()
  })

  test('behavior: on a chain whose timestamps advance 1 s per 2-s block, the ceiling counts periods of the wall clock: at most two reads per 2 s', async () => {
    const chain = simChain({ stepMs: 2_000, delayMs: [50, 300], stampStepMs: 1_000 })
    // a timing that believes the 1-s stamps and wants to read again at once
    const { feed, reads } = feedOf(
      chain,
      {},
      () => 30,
      (_, read) => ({ at: read.endedAt + 1 }),
    )
    await poll(feed, chain, 50, 60_000)
    const settled = reads.filter((r) => r >= reads[0]! + 20_000)
    for (let i = 2; i < settled.length; i++) expect(settled[i]! - settled[i - 2]!).toBeGreaterThanOrEqual(2_000)
    feed.stop()
  })
})

describe('a chain feed in a group of instances sharing a store', () => {
  /**
   * A feed whose shared-store layer the test scripts: load i reads the node ('read'), fails, or is
   * turned away with the first window (as the group's ceiling or a slow reader elsewhere holding the
   * lock would), with the group's read starts `groupStarts(at)`.
   */
  function feedInGroup(script: (i: number) => 'read' | 'fail' | 'turned away', groupStarts: (at: number) => number[] | undefined) {
    const chain = simChain({ stepMs: 2_000, delayMs: [50, 300] })
    const n = node(chain, () => 30)
    const loads: number[] = []
    let first: FeeWindow | undefined
    const store = layeredStore([
      async (_, next) => {
        const at = Date.now()
        const what = script(loads.push(at) - 1)
        if (what === 'fail') throw new Error('node down')
        if (what === 'read' || !first) {
          const r = await next()
          first ??= r.window
          return { window: r.window, source: 'led' as const }
        }
        const starts = groupStarts(at)
        return { window: first, source: 'ceiling' as const, ...(starts ? { groupStarts: starts } : {}) }
      },
    ])
    const feed = new ChainFeed(
      { id: 1, name: 'sim', rpcUrls: ['http://127.0.0.1:1'] },
      { settings: feedSettings({ maxHeadAgeMs: 0 }), store, read: n.read },
    )
    return { feed, loads, reads: n.reads }
  }

  test("behavior: turned away by the group's read ceiling, the feed tries again when the group's reads allow, not at once, and tells its subscribers nothing new", async () => {
    // after the first read, the group has always just read twice (another instance)
    const { feed, loads, reads } = feedInGroup(
      (i) => (i === 0 ? 'read' : 'turned away'),
      (at) => [at - 40, at - 20],
    )
    let told = 0
    const unsubscribe = feed.subscribe(() => told++)
    await vi.advanceTimersByTimeAsync(10_000)
    const period = periodOf(2_000)
    expect(reads).toHaveLength(1)
    // each try after the first waits one period from the group's older start (40 ms before it)
    expect(loads.length).toBeGreaterThan(3)
    for (let i = 2; i < loads.length; i++) expect(loads[i]! - loads[i - 1]!).toBeGreaterThanOrEqual(period - 40)
    expect(told).toBe(1)
    unsubscribe()
    feed.stop()
  })

  test('behavior: a load that hands back the window held (no read made) ends no failure: answers stay stale-marked, and the next try comes a quarter period later, not at once', async () => {
    const { feed, loads, reads } = feedInGroup(
      (i) => (i === 0 ? 'read' : i === 1 ? 'fail' : 'turned away'),
      () => undefined,
    )
    let told = 0
    const unsubscribe = feed.subscribe(() => told++)
    await vi.advanceTimersByTimeAsync(15_000)
    expect(reads).toHaveLength(1)
    // the first window, then the failure: nothing since
    expect(told).toBe(2)
    // the feed's own tries (a request may start one sooner)
    const turnedAway = loads.slice(2)
    expect(turnedAway.length).toBeGreaterThan(3)
    for (let i = 1; i < turnedAway.length; i++) expect(turnedAway[i]! - turnedAway[i - 1]!).toBeGreaterThanOrEqual(periodOf(2_000) / 4)
    const answer = await answerOf(feed)
    expect(answer.stale).toBe(true)
    unsubscribe()
    feed.stop()
  })

  test('behavior: a request past MAX_STALE_SECONDS whose load hands back the window held gets it marked stale, never as current', async () => {
    const { feed, reads } = feedInGroup(
      (i) => (i === 0 ? 'read' : 'turned away'),
      () => [],
    )
    expect((await answerOf(feed, { warm: false })).stale).toBe(false)
    await vi.advanceTimersByTimeAsync(feedSettings().maxStaleMs + 1_000)
    const answer = await answerOf(feed, { warm: false })
    expect(reads).toHaveLength(1)
    expect(answer.stale).toBe(true)
    feed.stop()
  })
})

describe('a chain feed on a devnet whose timestamps drift from the wall clock', () => {
  // anvil with a genesis in the past: a block every 2 s of the wall clock, stamped 1 s apart, each
  // reaching the node 5–40 ms after it is made; a stream subscriber and a client every 300 ms (what
  // bench:feed and the integration test run), reads taking 20–120 ms; eight start points
  test('behavior: at most 1.1 reads per new block once the first 5 blocks are read, every block read on its own soon after it lands', async () => {
    const STEP = 2_000
    const stats = { early: 0, late: 0, blocks: 0, earlyBlocks: 0, skipped: 0, lags: [] as number[] }
    for (let seed = 1; seed <= 8; seed++) {
      const chain = simChain({ stepMs: STEP, delayMs: [5, 40], stampStepMs: 1_000, seed })
      vi.setSystemTime(T0 + 10 * STEP + (seed * STEP) / 8 + 333)
      const rnd = random(seed * 7_919)
      const { feed, reads } = feedOf(chain, {}, () => 20 + rnd() * 100)
      const events: { head: number; at: number }[] = []
      feed.subscribe(() => {
        const head = feed.held()?.headNumber
        if (head !== undefined && head > (events.at(-1)?.head ?? -1)) events.push({ head, at: Date.now() })
      })
      const first = chain.headAt(Date.now())
      await poll(feed, chain, 300, 120 * STEP)
      feed.stop()
      // reads counted by the head the node had when each started (as the node's counting proxy does)
      const heads = reads.map((r) => chain.headAt(r))
      stats.early += heads.filter((h) => h >= first + 5 && h < first + 35).length
      stats.earlyBlocks += 30
      stats.late += heads.filter((h) => h >= first + 40 && h < first + 110).length
      stats.blocks += 70
      for (let i = 1; i < events.length; i++) {
        const e = events[i]!
        if (e.head - first < 10) continue
        stats.skipped += e.head - events[i - 1]!.head - 1
        stats.lags.push(e.at - chain.arrival(e.head))
      }
    }
    const lags = stats.lags.sort((a, b) => a - b)
    const p99 = lags[Math.floor(lags.length * 0.99)]!
    console.log(
      `drifting devnet, 8 starts: ${(stats.early / stats.earlyBlocks).toFixed(3)} reads per block over blocks 5–35, ${(stats.late / stats.blocks).toFixed(3)} over 40–110; ${stats.skipped} blocks without an event; event p50 ${Math.round(lags[Math.floor(lags.length / 2)]!)} ms, p99 ${Math.round(p99)} ms after the block`,
    )
    expect(stats.early / stats.earlyBlocks).toBeLessThanOrEqual(1.1)
    expect(stats.late / stats.blocks).toBeLessThanOrEqual(1.05)
    expect(stats.skipped).toBe(0)
    // each block's event within a quarter of its 2-s step
    expect(p99).toBeLessThan(STEP / 4)
  })
})
