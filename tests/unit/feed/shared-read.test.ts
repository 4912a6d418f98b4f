import { describe, expect, test } from 'vitest'
import { readThroughSharedStore, type SharedReadParams, type SharedWindowStore } from '@/lib/feed/shared-read'
import type { FeeWindow } from '@/lib/core/types'
import { UNAVAILABLE } from '@/lib/runtime/unavailable'
import { makeWindow } from '../../support/windows'

/** An in-memory stand-in for Redis with the same contract (SET NX lock, token release). */
function memoryStore(
  opts: { unavailable?: boolean } = {},
): SharedWindowStore & { windows: Map<number, FeeWindow>; locks: Map<number, string> } {
  const windows = new Map<number, FeeWindow>()
  const locks = new Map<number, string>()
  let n = 0
  const tick = () => new Promise((r) => setTimeout(r, 1)) // a network round trip: lets other callers interleave
  return {
    windows,
    locks,
    async get(chainId) {
      await tick()
      return opts.unavailable ? UNAVAILABLE : (windows.get(chainId) ?? null)
    },
    async put(chainId, w) {
      await tick()
      windows.set(chainId, w)
    },
    async lock(chainId) {
      await tick()
      if (opts.unavailable) return UNAVAILABLE
      if (locks.has(chainId)) return null
      const token = `t${++n}`
      locks.set(chainId, token)
      return token
    },
    async unlock(chainId, token) {
      await tick()
      if (locks.get(chainId) === token) locks.delete(chainId)
    },
  }
}

function upstream(delayMs = 30) {
  const calls: number[] = []
  const given: (FeeWindow | undefined)[] = []
  return {
    calls,
    given,
    read: async (published?: FeeWindow) => {
      calls.push(Date.now())
      given.push(published)
      await new Promise((r) => setTimeout(r, delayMs))
      return { ...makeWindow({ baseFees: [1n, 2n], next: 3n }), fetchedAt: Date.now() }
    },
  }
}

const params = (
  store: SharedWindowStore,
  read: (published?: FeeWindow) => Promise<FeeWindow>,
  over: Partial<SharedReadParams> = {},
): SharedReadParams => ({
  store,
  chainId: 1,
  newerThan: 0,
  minHeadNumber: 0,
  isFresh: (w) => Date.now() - w.fetchedAt < 1_000,
  read,
  publishTtlMs: 60_000,
  lockMs: 2_000,
  waitMs: 1_000,
  pollMs: 5,
  ...over,
})

describe('readThroughSharedStore', () => {
  test('behavior: instances asking at once read the upstream once; the others join the published window', async () => {
    const store = memoryStore()
    const node = upstream()
    const results = await Promise.all(Array.from({ length: 4 }, () => readThroughSharedStore(params(store, node.read))))
    expect(node.calls).toHaveLength(1)
    expect(results.map((r) => r.source).sort()).toEqual(['joined', 'joined', 'joined', 'led'])
    expect(new Set(results.map((r) => r.window.fetchedAt)).size).toBe(1)
    expect(store.locks.size).toBe(0) // released
  })

  test('behavior: a fresh published window newer than ours is taken without a read', async () => {
    const store = memoryStore()
    store.windows.set(1, { ...makeWindow({ baseFees: [1n], next: 1n }), fetchedAt: Date.now() - 100 })
    const node = upstream()
    const r = await readThroughSharedStore(params(store, node.read, { newerThan: Date.now() - 500 }))
    expect(r.source).toBe('joined')
    expect(node.calls).toHaveLength(0)
  })

  test('behavior: a published window that is expired, or not newer than ours, is read again', async () => {
    for (const [fetchedAgo, newerThanAgo] of [
      [1_500, 5_000],
      [100, 50],
    ] as const) {
      const store = memoryStore()
      const published = { ...makeWindow({ baseFees: [1n], next: 1n }), fetchedAt: Date.now() - fetchedAgo }
      store.windows.set(1, published)
      const node = upstream(1)
      const r = await readThroughSharedStore(params(store, node.read, { newerThan: Date.now() - newerThanAgo }))
      expect(r.source).toBe('led')
      expect(node.calls).toHaveLength(1)
      // an expired window newer than ours is handed to the read (its read timing goes on from it); one not newer is not
      expect(node.given).toEqual([fetchedAgo === 1_500 ? published : undefined])
    }
  })

  test('behavior: a published window from a node behind ours is not taken', async () => {
    const store = memoryStore()
    const theirs = { ...makeWindow({ baseFees: [1n], next: 1n }), fetchedAt: Date.now() - 10 }
    store.windows.set(1, theirs)
    const node = upstream(1)
    const r = await readThroughSharedStore(params(store, node.read, { minHeadNumber: theirs.headNumber + 1 }))
    expect(r.source).toBe('led')
    expect(node.calls).toHaveLength(1)
  })

  test('behavior: a window read by a machine whose clock runs ahead is taken as read now, not in the future', async () => {
    const store = memoryStore()
    store.windows.set(1, { ...makeWindow({ baseFees: [1n], next: 1n }), fetchedAt: Date.now() + 5_000 })
    const before = Date.now()
    const r = await readThroughSharedStore(params(store, upstream().read, { isFresh: () => true }))
    expect(r.source).toBe('joined')
    expect(r.window.fetchedAt).toBeGreaterThanOrEqual(before)
    expect(r.window.fetchedAt).toBeLessThanOrEqual(Date.now())
  })

  test('behavior: without the store (down, slow, not configured) every caller reads on its own', async () => {
    const node = upstream(1)
    const r = await readThroughSharedStore(params(memoryStore({ unavailable: true }), node.read))
    expect(r.source).toBe('local')
    expect(node.calls).toHaveLength(1)
  })

  test('behavior: past waitMs behind a holder that has not published (slow, or crashed), an instance holding a window answers with it and does not read', async () => {
    const store = memoryStore()
    store.locks.set(1, 'someone-else')
    const node = upstream(1)
    const held = { ...makeWindow({ baseFees: [1n, 2n], next: 3n }), fetchedAt: Date.now() - 5_000 }
    const t0 = Date.now()
    const r = await readThroughSharedStore(params(store, node.read, { waitMs: 150, held, newerThan: held.fetchedAt }))
    expect(r).toEqual({ window: held, source: 'ceiling', groupStarts: [] })
    expect(node.calls).toHaveLength(0)
    expect(Date.now() - t0).toBeGreaterThanOrEqual(150)
  })

  test("behavior: under the lock, when the published window's read starts leave no room in the period (the group ceiling), nothing is read: the newest window known answers, with the group's starts", async () => {
    const store = memoryStore()
    const now = Date.now()
    const published = { ...makeWindow({ baseFees: [1n, 2n], next: 3n }), fetchedAt: now - 2_000, readStarts: [now - 300, now - 100] }
    store.windows.set(1, published)
    const node = upstream(1)
    const seen: (FeeWindow | null)[] = []
    const mayRead = (w: FeeWindow | null) => {
      seen.push(w)
      return false
    }
    const held = { ...published, fetchedAt: now - 4_000 }
    const r = await readThroughSharedStore(params(store, node.read, { mayRead, held, newerThan: held.fetchedAt }))
    expect(node.calls).toHaveLength(0)
    expect(seen).toEqual([published])
    expect(r.source).toBe('ceiling')
    expect(r.window.fetchedAt).toBe(published.fetchedAt)
    expect(r.groupStarts).toEqual(published.readStarts)
    expect(store.locks.size).toBe(0)
    // not newer than the one held: the held window answers, with the same starts
    const r2 = await readThroughSharedStore(params(store, node.read, { mayRead, held: published, newerThan: published.fetchedAt }))
    expect(r2).toEqual({ window: published, source: 'ceiling', groupStarts: published.readStarts })
    expect(node.calls).toHaveLength(0)
  })

  test('behavior: a lock whose holder never publishes (crashed) is waited on for waitMs at most, then an instance that holds no window reads', async () => {
    const store = memoryStore()
    store.locks.set(1, 'someone-else')
    const node = upstream(1)
    const t0 = Date.now()
    const r = await readThroughSharedStore(params(store, node.read, { waitMs: 150 }))
    expect(r.source).toBe('local')
    expect(Date.now() - t0).toBeGreaterThanOrEqual(150)
    expect(Date.now() - t0).toBeLessThan(1_000)
  })

  test('error: a failed read under the lock releases it, so the next caller can lead', async () => {
    const store = memoryStore()
    await expect(readThroughSharedStore(params(store, () => Promise.reject(new Error('node down'))))).rejects.toThrow('node down')
    expect(store.locks.size).toBe(0)
    const node = upstream(1)
    expect((await readThroughSharedStore(params(store, node.read))).source).toBe('led')
  })
})
