import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { startFakeRpc, type FakeRpc } from '../../support/fake-rpc'
import { until } from '../../support/until'
import { mainnetFakeChain } from '../../support/mainnet-blocks'
import { chainAt, feedSettings } from '../../support/feed'

// unstable_cache as it behaves once an entry exists: the stored entry at once, a revalidation behind
// it (stale-while-revalidate), whose result the next call gets
vi.mock('next/cache', () => ({
  unstable_cache: <A extends unknown[], T>(fn: (...args: A) => Promise<T>) => {
    let entry: T | undefined
    let revalidating: Promise<void> | undefined
    return async (...args: A): Promise<T> => {
      if (entry === undefined) return (entry = await fn(...args))
      revalidating ??= fn(...args)
        .then((v) => {
          entry = v
        })
        .catch(() => {})
        .finally(() => {
          revalidating = undefined
        })
      return entry
    }
  },
}))
vi.mock('next/server', () => ({ after: () => {} }))
const { chainFeed } = await import('@/lib/feed/feeds')

let node: FakeRpc
beforeAll(async () => {
  node = await startFakeRpc({ chainId: 1, ...mainnetFakeChain(12) })
})
afterAll(async () => {
  vi.useRealTimers()
  await node.close()
})

test(
  "behavior: the cache's stale-while-revalidate never keeps an old window in service: a read brings current data",
  { timeout: 30_000 },
  async () => {
    const feed = chainFeed(chainAt(node.url), feedSettings({ warmMs: 0, waitMs: 0 }))
    vi.useFakeTimers({ toFake: ['Date'] })
    const t0 = Date.now()
    const first = await feed.get()
    expect(first.window.fetchedAt).toBe(t0)
    // past its freshness: the cache answers its stored (old) entry; the feed does not take that as new
    // data, reads behind the answer, and serves the new window once it is in
    vi.setSystemTime(t0 + 13_000)
    expect((await feed.get()).window.fetchedAt).toBe(t0)
    await until(async () => expect((await feed.get()).window.fetchedAt).toBeGreaterThanOrEqual(t0 + 13_000), {
      timeout: 10_000,
    })
    // much later (past three periods, within MAX_STALE_SECONDS) the same: never the cache's stale entry as current
    vi.setSystemTime(t0 + 50_000)
    const late = await feed.get()
    expect(late.window.fetchedAt).toBeLessThan(t0 + 50_000)
    expect(late.stale).toBe(true)
    await until(
      async () => {
        const now = await feed.get()
        expect(now.window.fetchedAt).toBeGreaterThanOrEqual(t0 + 50_000)
        expect(now.stale).toBe(false)
      },
      { timeout: 10_000 },
    )
  },
)
