// The pending pieces' tracker on fake timers: a node that builds each block in pieces is found and followed once per
// piece; a node whose pending block is its latest, or whose pool fills all at once after a block, is not.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { PendingBlockRead } from '@/lib/upstream/read-pending'

const { PieceTracker } = await import('@/lib/feed/piece-tracker')

const T0 = 1_800_000_000_000
const BLOCK_MS = 2_000

/** A chain on the fake clock: block n+1 is built from T0 + n · 2 s; `pendingAt(t)` is what its node's pending block shows. */
type Node = { reads: number; pendingAt: (t: number) => PendingBlockRead; headAt: (t: number) => number }

const head = (t: number) => Math.floor((t - T0) / BLOCK_MS) + 100
/** `deposit`: the pending block opens with an OP-stack deposit, as a flashblocks node's piece 0 does. */
const read = (number: number, txs: number, t: number, deposit = true): PendingBlockRead => ({
  number,
  gasLimit: '60000000',
  gasUsed: String(45_000 + txs * 21_000),
  txs: Array.from({ length: txs }, (_, i) => ({ hash: `0x${number}-${i}`, gas: '21000', tip: String(1_000_000 + i) })),
  deposit,
  readAt: t,
})

/** Pieces every `pieceMs`, piece 0 holding the deposit only and each later one three transfers. */
const pieced =
  (pieceMs: number): Node['pendingAt'] =>
  (t) => {
    const j = Math.floor(((t - T0) % BLOCK_MS) / pieceMs)
    return read(head(t) + 1, 3 * j, t)
  }
/** A pool that fills in the first 300 ms after each block, a transaction every 20 ms (a devnet's traffic burst). */
const poolBurst: Node['pendingAt'] = (t) => read(head(t) + 1, Math.min(15, Math.floor(((t - T0) % BLOCK_MS) / 20)), t)
/** A node whose pending block is its latest. */
const latestOnly: Node['pendingAt'] = (t) => read(head(t), 5, t)

/** ms after each block's start that the node stalls reads for (sealing), 0: none. */
function track(pendingAt: Node['pendingAt'], stallMs = 0, slow?: { untilMs: number; readMs: number }, publishedPieceMs?: number) {
  const node = { reads: 0 }
  const pieces: number[] = []
  const tracker = new PieceTracker({
    read: async () => {
      node.reads++
      const into = (Date.now() - T0) % BLOCK_MS
      if (into < stallMs) await new Promise((r) => setTimeout(r, stallMs - into))
      if (slow && Date.now() < T0 + slow.untilMs) await new Promise((r) => setTimeout(r, slow.readMs))
      return pendingAt(Date.now())
    },
    sealed: () => ({ headNumber: head(Date.now()), blockIntervalMs: BLOCK_MS }),
    warm: () => true,
    publishedPieceMs,
    onPiece: () => pieces.push(Date.now()),
  })
  tracker.wake()
  return { tracker, node, pieces }
}

beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(T0 + 1)
})
afterEach(() => vi.useRealTimers())

describe('PieceTracker', () => {
  test.each([
    ['Base: 10 pieces of 200 ms', 200, 10],
    ['Unichain-like: 8 pieces of 250 ms', 250, 8],
  ])('behavior: %s: found, the cadence measured, then one read per piece', async (_, pieceMs, pieces) => {
    const { tracker, node } = track(pieced(pieceMs))
    await vi.advanceTimersByTimeAsync(4 * BLOCK_MS + 500)
    expect(tracker.flashblocks).toBe(true)
    const window = { headNumber: head(Date.now()), blockIntervalMs: BLOCK_MS } as Parameters<typeof tracker.overlay>[0]
    const view = tracker.overlay(window).pending!
    expect(view).toMatchObject({ pieces, cadenceMs: BLOCK_MS / pieces, blockNumber: head(Date.now()) + 1 })
    // the same object while the piece is the same: the per-window memos hold
    expect(tracker.overlay(window)).toBe(tracker.overlay(window))
    const before = node.reads
    await vi.advanceTimersByTimeAsync(10 * BLOCK_MS)
    const perPiece = (node.reads - before) / (10 * pieces)
    expect(perPiece).toBeGreaterThanOrEqual(0.9)
    expect(perPiece).toBeLessThanOrEqual(1.1)
    // the piece of the node's pending block when it was last read
    const now = tracker.overlay({ ...window, headNumber: head(Date.now()) }).pending!
    expect(now.piece).toBe(Math.floor(((now.readAt - T0) % BLOCK_MS) / pieceMs))
    expect(Date.now() - now.readAt).toBeLessThan(pieceMs)
  })

  test.each([
    ['steps of 222 ms (a busy probe reads 9 for 10) on a chain that publishes 200 ms: its 10 of 200', BLOCK_MS / 9, 200, 10],
    ['steps of 222 ms on a chain that publishes none: the 9 measured', BLOCK_MS / 9, undefined, 9],
    ['steps of 250 ms on a chain that publishes 200 ms (a quarter off: it changed): the 8 measured', 250, 200, 8],
  ])('behavior: %s', async (_, pieceMs, published, pieces) => {
    const { tracker } = track(pieced(pieceMs), 0, undefined, published)
    await vi.advanceTimersByTimeAsync(4 * BLOCK_MS + 500)
    expect(tracker.flashblocks).toBe(true)
    const window = { headNumber: head(Date.now()), blockIntervalMs: BLOCK_MS } as Parameters<typeof tracker.overlay>[0]
    expect(tracker.overlay(window).pending).toMatchObject({ pieces, cadenceMs: BLOCK_MS / pieces })
  })

  test.each([
    ['a node whose pending block is its latest', latestOnly],
    ['a pool that fills all at once after each block (a devnet)', poolBurst],
  ])('behavior: %s is not a flashblocks chain, and is not read again for 10 minutes', async (_, pendingAt) => {
    const { tracker, node } = track(pendingAt)
    await vi.advanceTimersByTimeAsync(4 * BLOCK_MS)
    expect(tracker.flashblocks).toBe(false)
    const before = node.reads
    await vi.advanceTimersByTimeAsync(5 * 60_000)
    expect(node.reads).toBe(before)
    const window = { headNumber: head(Date.now()), blockIntervalMs: BLOCK_MS } as Parameters<typeof tracker.overlay>[0]
    expect(tracker.overlay(window)).toBe(window)
  })

  test('behavior: a pool that grows in steps like pieces (a devnet sent a transaction every 300 ms) is not pieces without the OP-stack deposit', async () => {
    const steady = (deposit: boolean) => (t: number) => read(head(t) + 1, Math.floor(((t - T0) % BLOCK_MS) / 300), t, deposit)
    // the same steps opened by a deposit are taken for pieces: the deposit alone tells them apart
    const opened = track(steady(true))
    await vi.advanceTimersByTimeAsync(4 * BLOCK_MS)
    expect(opened.tracker.flashblocks).toBe(true)
    opened.tracker.stop()
    const { tracker } = track(steady(false))
    await vi.advanceTimersByTimeAsync(4 * BLOCK_MS)
    expect(tracker.flashblocks).toBe(false)
    const window = { headNumber: head(Date.now()), blockIntervalMs: BLOCK_MS } as Parameters<typeof tracker.overlay>[0]
    expect(tracker.overlay(window)).toBe(window)
  })

  test('behavior: a view older than three pieces is not served (the reads stopped)', async () => {
    let up = true
    const { tracker } = track((t) => {
      if (!up) throw new Error('down')
      return pieced(200)(t)
    })
    await vi.advanceTimersByTimeAsync(4 * BLOCK_MS + 500)
    const window = () => ({ headNumber: head(Date.now()), blockIntervalMs: BLOCK_MS }) as Parameters<typeof tracker.overlay>[0]
    expect(tracker.overlay(window()).pending).toBeDefined()
    up = false
    await vi.advanceTimersByTimeAsync(700)
    expect(tracker.overlay(window()).pending).toBeUndefined()
  })

  test("behavior: the cadence holds when the node answers each block's first reads late (it is sealing)", async () => {
    // every block's first piece is seen 150 ms late: its spread is 150 ms short of 9 steps of 200 ms, which an
    // estimate of spread over steps reads as 11 pieces; the steps themselves still say 200 ms
    const { tracker } = track(pieced(200), 150)
    await vi.advanceTimersByTimeAsync(4 * BLOCK_MS + 500)
    expect(tracker.flashblocks).toBe(true)
    const window = { headNumber: head(Date.now()), blockIntervalMs: BLOCK_MS } as Parameters<typeof tracker.overlay>[0]
    expect(tracker.overlay(window).pending).toMatchObject({ pieces: 10, cadenceMs: 200 })
  })

  test('behavior: each view carries the recent pieces’ demands, the blocks’ openings (no user transaction) left out', async () => {
    // 10 pieces of 200 ms, each full to its budget j · 6M with three transactions; piece 0 the deposit only
    const full: Node['pendingAt'] = (t) => {
      const j = Math.floor(((t - T0) % BLOCK_MS) / 200)
      return { ...read(head(t) + 1, 3 * j, t), gasUsed: String(j * 6_000_000) }
    }
    const { tracker } = track(full)
    await vi.advanceTimersByTimeAsync(10 * BLOCK_MS + 500)
    const window = { headNumber: head(Date.now()), blockIntervalMs: BLOCK_MS } as Parameters<typeof tracker.overlay>[0]
    const view = tracker.overlay(window).pending!
    expect(view.newest.length).toBeGreaterThan(0)
    // piece j took transactions 3(j − 1)… of its block: its lowest tip 1_000_000 + 3(j − 1); never a 0 of an opening
    expect(view.recentDemands).toHaveLength(20)
    expect(view.recentDemands!.at(-1)).toBe(String(1_000_000 + 3 * (view.piece - 1)))
    for (const d of view.recentDemands!) expect((BigInt(d) - 1_000_000n) % 3n).toBe(0n)
  })

  test('behavior: a view in calm still carries the demands of the last full pieces, within the states kept, while its recent demands are 0', async () => {
    // full pieces (each at its budget j · 6M, lowest tip 1_000_000 + 3(j − 1)) until 12 s in, room after
    const fullUntil = T0 + 12_000
    const node: Node['pendingAt'] = (t) => {
      const j = Math.floor(((t - T0) % BLOCK_MS) / 200)
      const r = read(head(t) + 1, 3 * j, t)
      return t < fullUntil ? { ...r, gasUsed: String(j * 6_000_000) } : r
    }
    const { tracker } = track(node)
    await vi.advanceTimersByTimeAsync(20_000)
    const window = { headNumber: head(Date.now()), blockIntervalMs: BLOCK_MS } as Parameters<typeof tracker.overlay>[0]
    const calm = tracker.overlay(window).pending!
    expect(calm.recentDemands!.every((d) => d === '0')).toBe(true)
    const crowded = tracker
      .seen()
      .filter((s) => s.view.readAt < fullUntil && s.view.newest.length)
      .map((s) => String(1_000_000 + 3 * (s.view.piece - 1)))
    // the full pieces followed after the probe: more than the 20 recent demands a view carries
    expect(crowded.length).toBeGreaterThan(20)
    expect(calm.crowdedDemands).toEqual(crowded)
    // none older than the states kept (600 pieces: two minutes here): after them, the view forgets the burst
    await vi.advanceTimersByTimeAsync(121_000)
    expect(tracker.overlay({ ...window, headNumber: head(Date.now()) }).pending!.crowdedDemands).toEqual([])
  })

  test('behavior: a probe whose reads came too slow to see the pieces decides nothing; the next, soon after, measures them', async () => {
    // for the first 8 s every read takes 700 ms (a busy machine): three reads a block, which would read as 3 pieces
    const { tracker } = track(pieced(200), 0, { untilMs: 8_000, readMs: 700 })
    await vi.advanceTimersByTimeAsync(8_000)
    expect(tracker.flashblocks).toBe(false)
    // tried again two probes' lengths (12 s) later, with reads as fast as the node answers; the feed wakes the
    // tracker on each new window (every block)
    for (let t = 0; t < 14_000; t += BLOCK_MS) {
      await vi.advanceTimersByTimeAsync(BLOCK_MS)
      tracker.wake()
    }
    await vi.advanceTimersByTimeAsync(7_000)
    expect(tracker.flashblocks).toBe(true)
    const window = { headNumber: head(Date.now()), blockIntervalMs: BLOCK_MS } as Parameters<typeof tracker.overlay>[0]
    expect(tracker.overlay(window).pending).toMatchObject({ pieces: 10, cadenceMs: 200 })
  })
})
