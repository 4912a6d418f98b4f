// The pending pieces read on another thread: the reading side (hostPieces), the feed's side (RemotePieces) and the
// thread's keeper (PieceThread), joined by an in-memory channel that clones each message and delivers it on a later
// turn, as a worker's port does; fake timers; the worker is a fake whose other end runs hostPieces.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { FeeWindow } from '@/lib/core/types'
import type { PendingBlockRead } from '@/lib/upstream/read-pending'
import type { PieceHeard, PieceHooks, PiecePort, PieceTold } from '@/lib/feed/piece-bridge'
import type { PieceWorker } from '@/lib/feed/piece-thread'
import { makeWindow } from '../../support/windows'
import { feedSettings } from '../../support/feed'

vi.mock('next/cache', () => ({ unstable_cache: <T>(fn: T) => fn }))
const { hostPieces, RemotePieces } = await import('@/lib/feed/piece-bridge')
const { PieceThread } = await import('@/lib/feed/piece-thread')
const { ChainFeed } = await import('@/lib/feed/chain-feed')
const { layeredStore } = await import('@/lib/feed/window-store')
const { logger } = await import('@/lib/log/logger')

const T0 = 1_800_000_000_000
const BLOCK_MS = 2_000
const PIECE_MS = 200
const head = (t: number) => Math.floor((t - T0) / BLOCK_MS) + 100
/** A node that builds block head + 1 in 10 pieces of 200 ms (or of `pieceMs`), three transfers a piece after the first. */
function pendingAt(t: number, pieceMs = PIECE_MS): PendingBlockRead {
  const j = Math.floor(((t - T0) % BLOCK_MS) / pieceMs)
  const number = head(t) + 1
  const txs = Array.from({ length: 3 * j }, (_, i) => ({ hash: `0x${number}-${i}`, gas: '21000', tip: String(1_000_000 + i) }))
  return { number, gasLimit: '60000000', gasUsed: String(45_000 + txs.length * 21_000), txs, deposit: true, readAt: t }
}

/** A channel's two ends: each message is cloned and delivered in order on a later turn, never in the sender's call. */
function channel() {
  const closed = { now: false }
  const ends = [new Set<(m: unknown) => void>(), new Set<(m: unknown) => void>()]
  const queues: unknown[][] = [[], []]
  const end = <Out, In>(mine: number): PiecePort<Out, In> => ({
    postMessage: (m) => {
      const queue = queues[1 - mine]!
      queue.push(structuredClone(m))
      if (queue.length === 1)
        setTimeout(() => {
          for (const message of queue.splice(0)) if (!closed.now) ends[1 - mine]!.forEach((l) => l(message))
        }, 0)
    },
    on: (_kind, listener) => ends[mine]!.add(listener as (m: unknown) => void),
  })
  return { feedEnd: end<PieceTold, PieceHeard>(0), threadEnd: end<PieceHeard, PieceTold>(1), closed }
}

/** The node, the messages told, the workers started (each a fresh hostPieces), and the thread that starts them. */
function world(opts: { spawnFails?: () => boolean; readMs?: number; pieceMs?: number } = {}) {
  const node = { reads: 0, inFlight: 0 }
  const told: PieceTold[] = []
  const workers: { fail: (reason: string) => void }[] = []
  const thread = new PieceThread(() => {
    if (opts.spawnFails?.()) throw new Error('no worker here')
    const { feedEnd, threadEnd, closed } = channel()
    hostPieces(threadEnd, async (t) => {
      // a terminated thread runs nothing
      if (closed.now) throw new Error('terminated')
      node.reads++
      node.inFlight++
      if (opts.readMs) await new Promise((r) => setTimeout(r, opts.readMs))
      node.inFlight--
      expect(t.rpcUrls).toEqual(['http://node.test'])
      return pendingAt(Date.now(), opts.pieceMs)
    })
    const onError: ((err: Error) => void)[] = []
    const worker = {
      postMessage: (m: PieceTold) => {
        told.push(m)
        feedEnd.postMessage(m)
      },
      on: (kind: string, listener: (x: never) => void) => {
        if (kind === 'message') feedEnd.on('message', listener as (h: PieceHeard) => void)
        if (kind === 'error') onError.push(listener as (err: Error) => void)
      },
      unref: () => {},
      terminate: async () => {
        closed.now = true
        return 0
      },
    }
    workers.push({ fail: (reason) => onError.forEach((l) => l(new Error(reason))) })
    return worker as unknown as PieceWorker
  })
  return { node, told, workers, thread }
}

/** A feed's side on `thread`, its warm period and sealed head from `feed`. */
function remoteOn(thread: InstanceType<typeof PieceThread>, blockIntervalMs = BLOCK_MS, headAt = head, publishedPieceMs?: number) {
  const feed = { warmUntil: Number.POSITIVE_INFINITY, pieces: 0 }
  const hooks: PieceHooks = {
    sealed: () => ({ headNumber: headAt(Date.now()), blockIntervalMs }),
    warmUntil: () => feed.warmUntil,
    onPiece: () => feed.pieces++,
  }
  return { remote: new RemotePieces({ rpcUrls: ['http://node.test'], timeoutMs: 1_000, publishedPieceMs }, hooks, thread), feed }
}

const windowAt = (t: number) => ({ headNumber: head(t), blockIntervalMs: BLOCK_MS }) as FeeWindow

/** Runs the clock `blocks` block intervals, the feed telling its new head as each block seals. */
async function run(remote: { wake(): void }, blocks: number) {
  for (let i = 0; i < 2 * blocks; i++) {
    await vi.advanceTimersByTimeAsync(BLOCK_MS / 2)
    remote.wake()
  }
}

beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(T0 + 1)
  vi.spyOn(logger(), 'error').mockImplementation(() => {})
})
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('pieces read on another thread', () => {
  test('behavior: the feed’s side follows the pieces the reading side finds, one read per piece, a call per new piece', async () => {
    const { thread, node } = world()
    const { remote, feed } = remoteOn(thread)
    remote.wake()
    await vi.advanceTimersByTimeAsync(4 * BLOCK_MS + 500)
    expect(remote.flashblocks).toBe(true)
    const view = remote.overlay(windowAt(Date.now())).pending!
    expect(view).toMatchObject({ pieces: 10, cadenceMs: PIECE_MS, blockNumber: head(Date.now()) + 1 })
    const [reads, calls] = [node.reads, feed.pieces]
    await run(remote, 10)
    const perPiece = (node.reads - reads) / 100
    expect(perPiece).toBeGreaterThanOrEqual(0.9)
    expect(perPiece).toBeLessThanOrEqual(1.1)
    // pieces 1–9 of each block grow it, piece 0 opens the next: a new state per piece
    expect(feed.pieces - calls).toBeGreaterThanOrEqual(90)
    const now = remote.overlay(windowAt(Date.now()))
    expect(now.pending!.blockNumber).toBe(head(Date.now()) + 1)
    expect(remote.sealedOf(now)).toEqual(windowAt(Date.now()))
    expect(remote.seen().length).toBeGreaterThanOrEqual(90)
  })

  test.each([
    ['told its published 200 ms, takes it', 200, 10],
    ['told none, keeps its measurement', undefined, 9],
  ])('behavior: a chain whose steps read 222 ms (a busy probe’s 9 for 10): the reading side, %s', async (_, published, pieces) => {
    const { thread } = world({ pieceMs: BLOCK_MS / 9 })
    const { remote } = remoteOn(thread, BLOCK_MS, head, published)
    remote.wake()
    await vi.advanceTimersByTimeAsync(4 * BLOCK_MS + 500)
    expect(remote.flashblocks).toBe(true)
    expect(remote.overlay(windowAt(Date.now())).pending).toMatchObject({ pieces, cadenceMs: BLOCK_MS / pieces })
  })

  test('behavior: a warm period moved by under a second is not told again; a shorter one and a new head are', () => {
    const { thread, told } = world()
    const { remote, feed } = remoteOn(thread)
    feed.warmUntil = Date.now() + 180_000
    remote.wake()
    feed.warmUntil += 999
    remote.wake()
    expect(told).toHaveLength(1)
    feed.warmUntil += 2
    remote.wake()
    expect(told).toHaveLength(2)
    feed.warmUntil = Number.POSITIVE_INFINITY
    remote.wake()
    remote.wake()
    expect(told.map((t) => t.warmUntil).at(-1)).toBe(Number.POSITIVE_INFINITY)
    expect(told).toHaveLength(3)
    feed.warmUntil = Date.now() + 180_000
    remote.wake()
    expect(told).toHaveLength(4)
    vi.setSystemTime(Date.now() + BLOCK_MS)
    remote.wake()
    expect(told).toHaveLength(5)
    expect(told.at(-1)!.sealed).toEqual({ headNumber: head(Date.now()), blockIntervalMs: BLOCK_MS })
  })

  test('behavior: no thread is started for a cold feed or a chain whose blocks come too seldom to be built in pieces', () => {
    const { thread, workers } = world()
    const slow = remoteOn(thread, 12_000)
    slow.remote.wake()
    slow.remote.stop()
    const cold = remoteOn(thread)
    cold.feed.warmUntil = Date.now() - 1
    cold.remote.wake()
    expect(workers).toHaveLength(0)
    cold.feed.warmUntil = Date.now() + 1_000
    cold.remote.wake()
    expect(workers).toHaveLength(1)
  })

  test('behavior: the reads stop when the warm period told ends, and when the feed stops', async () => {
    const { thread, node } = world()
    const { remote, feed } = remoteOn(thread)
    feed.warmUntil = Date.now() + 6 * BLOCK_MS
    remote.wake()
    await vi.advanceTimersByTimeAsync(8 * BLOCK_MS)
    const afterWarm = node.reads
    await vi.advanceTimersByTimeAsync(4 * BLOCK_MS)
    expect(node.reads).toBe(afterWarm)
    expect(afterWarm).toBeGreaterThan(0)
    feed.warmUntil = Number.POSITIVE_INFINITY
    remote.wake()
    await vi.advanceTimersByTimeAsync(BLOCK_MS)
    expect(node.reads).toBeGreaterThan(afterWarm)
    remote.stop()
    await vi.advanceTimersByTimeAsync(BLOCK_MS)
    const stopped = node.reads
    await vi.advanceTimersByTimeAsync(4 * BLOCK_MS)
    expect(node.reads).toBe(stopped)
  })

  test('behavior: a chain served from other nodes gets a new feed, probed anew; the old feed’s tracker stops, a read in flight or not', async () => {
    // each read takes 50 ms: the stop comes while one is in flight
    const { thread, node } = world({ readMs: 50 })
    const first = remoteOn(thread)
    first.remote.wake()
    await run(first.remote, 5)
    expect(first.remote.flashblocks).toBe(true)
    while (node.inFlight === 0) await vi.advanceTimersByTimeAsync(5)
    first.remote.stop()
    const second = remoteOn(thread)
    second.remote.wake()
    await run(second.remote, 5)
    expect(second.remote.flashblocks).toBe(true)
    // the old feed's tracker reads no more: one read per piece in all
    const reads = node.reads
    await run(second.remote, 5)
    expect((node.reads - reads) / 50).toBeLessThanOrEqual(1.1)
    expect(second.remote.overlay(windowAt(Date.now())).pending?.blockNumber).toBeGreaterThanOrEqual(head(Date.now()))
  })

  test('behavior: a failed thread is started again after a back-off (5 s, doubling), and its feeds are told again', async () => {
    const { thread, node, workers } = world()
    const { remote } = remoteOn(thread)
    remote.wake()
    await run(remote, 5)
    expect(remote.flashblocks).toBe(true)
    workers[0]!.fail('crashed')
    const reads = node.reads
    await run(remote, 2)
    // the old thread is gone; none is started within 5 s
    expect(workers).toHaveLength(1)
    expect(node.reads).toBe(reads)
    await run(remote, 1.5)
    expect(workers).toHaveLength(2)
    await run(remote, 5)
    expect(node.reads).toBeGreaterThan(reads)
    expect(remote.overlay(windowAt(Date.now())).pending?.blockNumber).toBeGreaterThanOrEqual(head(Date.now()))
    // failing again within a minute: 10 s before the next
    workers[1]!.fail('crashed again')
    await run(remote, 4.5)
    expect(workers).toHaveLength(2)
    await run(remote, 1)
    expect(workers).toHaveLength(3)
    // a thread that ran a minute starts the doubling over: 5 s again, not 20 s
    await run(remote, 31)
    workers[2]!.fail('crashed after a minute')
    await run(remote, 3)
    expect(workers).toHaveLength(4)
  })

  test('behavior: a feed stopped while its thread is down starts no thread to say so', async () => {
    const { thread, workers } = world()
    const { remote } = remoteOn(thread)
    remote.wake()
    workers[0]!.fail('crashed')
    await vi.advanceTimersByTimeAsync(10_000)
    remote.stop()
    expect(workers).toHaveLength(1)
  })

  test('behavior: a thread that cannot start is not a request’s error: told nothing, tried again after the back-off', async () => {
    let fails = true
    const { thread, workers } = world({ spawnFails: () => fails })
    // a head that does not move: only the tell that was not taken brings the thread
    const { remote } = remoteOn(thread, BLOCK_MS, () => 100)
    expect(() => remote.wake()).not.toThrow()
    expect(thread.generation).toBe(0)
    fails = false
    remote.wake()
    expect(workers).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(5_000)
    remote.wake()
    expect(workers).toHaveLength(1)
    expect(thread.generation).toBe(1)
  })

  test('behavior: with FEED_WARM_SECONDS=0 the pieces stop being read when the last subscriber leaves', async () => {
    const { thread, node } = world()
    const feed = new ChainFeed(
      { id: 8453, name: 'base', rpcUrls: ['http://node.test'] },
      {
        settings: feedSettings({ warmMs: 0 }),
        store: layeredStore([]),
        read: async () => ({
          ...makeWindow({ baseFees: [1n, 1n], next: 1n, intervalMs: BLOCK_MS }),
          headNumber: head(Date.now()),
          fetchedAt: Date.now(),
        }),
        followPieces: (hooks) => new RemotePieces({ rpcUrls: ['http://node.test'], timeoutMs: 1_000 }, hooks, thread),
      },
    )
    const leave = feed.subscribe(() => {})
    await vi.advanceTimersByTimeAsync(6 * BLOCK_MS)
    expect(feed.pieces!.flashblocks).toBe(true)
    leave()
    await vi.advanceTimersByTimeAsync(BLOCK_MS)
    const after = node.reads
    await vi.advanceTimersByTimeAsync(5 * BLOCK_MS)
    expect(node.reads).toBe(after)
    feed.stop()
  })
})
