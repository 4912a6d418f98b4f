// The pending pieces read on another thread: the reading side (hostPieces) and the feed's side (RemotePieces) joined
// by an in-memory channel that clones each message and delivers it later, as a worker's port does; fake timers.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { FeeWindow } from '@/lib/core/types'
import type { PendingBlockRead } from '@/lib/upstream/read-pending'
import type { PieceEvent } from '@/lib/feed/piece-state'
import type { PieceHeard, PieceLink, PiecePort, PieceTold } from '@/lib/feed/piece-bridge'

const { hostPieces, RemotePieces } = await import('@/lib/feed/piece-bridge')

const T0 = 1_800_000_000_000
const BLOCK_MS = 2_000
const PIECE_MS = 200
const head = (t: number) => Math.floor((t - T0) / BLOCK_MS) + 100
/** A node that builds block head + 1 in 10 pieces of 200 ms, three transfers a piece after the first. */
function pendingAt(t: number): PendingBlockRead {
  const j = Math.floor(((t - T0) % BLOCK_MS) / PIECE_MS)
  const number = head(t) + 1
  const txs = Array.from({ length: 3 * j }, (_, i) => ({ hash: `0x${number}-${i}`, gas: '21000', tip: String(1_000_000 + i) }))
  return { number, gasLimit: '60000000', gasUsed: String(45_000 + txs.length * 21_000), txs, readAt: t }
}

/** A channel's two ends: each message is cloned and delivered on a later turn, never in the sender's call. */
function channel() {
  const ends = [new Set<(m: unknown) => void>(), new Set<(m: unknown) => void>()]
  const end = <Out, In>(mine: number): PiecePort<Out, In> => ({
    postMessage: (m) => {
      const copy = structuredClone(m)
      setTimeout(() => ends[1 - mine]!.forEach((l) => l(copy)), 0)
    },
    on: (_kind, listener) => ends[mine]!.add(listener as (m: unknown) => void),
  })
  return { feedEnd: end<PieceTold, PieceHeard>(0), threadEnd: end<PieceHeard, PieceTold>(1) }
}

function setup(blockIntervalMs = BLOCK_MS) {
  const { feedEnd, threadEnd } = channel()
  const told: PieceTold[] = []
  const node = { reads: 0 }
  hostPieces(threadEnd, async (t) => {
    node.reads++
    expect(t.rpcUrls).toEqual(['http://node.test'])
    return pendingAt(Date.now())
  })
  const listeners = new Map<number, (e: PieceEvent) => void>()
  const link: PieceLink = {
    generation: 1,
    tell: (t) => {
      told.push(t)
      feedEnd.postMessage(t)
    },
    listen: (chainId, l) => listeners.set(chainId, l),
  }
  feedEnd.on('message', (h) => listeners.get(h.chainId)?.(h.event))
  const feed = { warmUntil: Number.POSITIVE_INFINITY, pieces: 0 }
  const remote = new RemotePieces(
    { chainId: 8453, rpcUrls: ['http://node.test'], timeoutMs: 1_000 },
    {
      sealed: () => ({ headNumber: head(Date.now()), blockIntervalMs }),
      warmUntil: () => feed.warmUntil,
      onPiece: () => feed.pieces++,
    },
    link,
  )
  return { remote, node, told, feed, link }
}

const windowAt = (t: number) => ({ headNumber: head(t), blockIntervalMs: BLOCK_MS }) as FeeWindow

beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(T0 + 1)
})
afterEach(() => vi.useRealTimers())

describe('pieces read on another thread', () => {
  test('behavior: the feed’s side follows the pieces the reading side finds, one read per piece, a call per new piece', async () => {
    const { remote, node, feed } = setup()
    remote.wake()
    await vi.advanceTimersByTimeAsync(4 * BLOCK_MS + 500)
    expect(remote.flashblocks).toBe(true)
    const view = remote.overlay(windowAt(Date.now())).pending!
    expect(view).toMatchObject({ pieces: 10, cadenceMs: PIECE_MS, blockNumber: head(Date.now()) + 1 })
    const [reads, calls] = [node.reads, feed.pieces]
    for (let i = 0; i < 20; i++) {
      // the feed tells the new head as each block seals
      await vi.advanceTimersByTimeAsync(BLOCK_MS / 2)
      remote.wake()
    }
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

  test('behavior: a warm period moved by under a second is not told again; a shorter one and a new head are', () => {
    const { remote, told, feed } = setup()
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

  test('behavior: a chain whose blocks come too seldom to be built in pieces starts no thread, not even to stop it', () => {
    const { remote, told } = setup(12_000)
    remote.wake()
    remote.stop()
    expect(told).toHaveLength(0)
    const probed = setup(4_000)
    probed.remote.wake()
    expect(probed.told).toHaveLength(1)
  })

  test('behavior: the reads stop when the warm period told ends, and when stopped; a new thread is told again', async () => {
    const { remote, node, told, feed, link } = setup()
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
    remote.wake()
    const count = told.length
    remote.wake()
    expect(told.length).toBe(count)
    ;(link as { generation: number }).generation = 2
    remote.wake()
    expect(told.length).toBe(count + 1)
  })
})
