import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { startFakeRpc, type FakeRpc } from '../../support/fake-rpc'
import { until } from '../../support/until'
import { mainnetFakeChain } from '../../support/mainnet-blocks'
import { chainAt, feedSettings } from '../../support/feed'

// the fake chain replays 2022 mainnet blocks (head-age staleness has its own test)
// unstable_cache needs a Next request context; here it is a pass-through, the cache rules are ours
vi.mock('next/cache', () => ({ unstable_cache: <T>(fn: T) => fn }))
vi.mock('next/server', () => ({ after: () => {} }))
const { chainFeed } = await import('@/lib/feed/feeds')
const { renderMetrics } = await import('@/lib/metrics/registry')

let node: FakeRpc
beforeAll(async () => {
  node = await startFakeRpc({ chainId: 1, ...mainnetFakeChain(12) }) // 12 s blocks: 12 s fresh, 12 s grace
})
afterAll(async () => {
  vi.useRealTimers()
  vi.restoreAllMocks()
  await node.close()
})

/** Failed upstream reads of chain 1 so far, from the process's own counters. */
const failedReads = async () =>
  [...(await renderMetrics()).matchAll(/^gas_api_upstream_reads_total\{chain="1",result="(?!ok)[^"]*"\} (\d+)$/gm)].reduce(
    (n, m) => n + Number(m[1]),
    0,
  )

// real HTTP to a fake node, polled up to 10 s a step: the test's budget covers the waits (docs/development.md, "Slow tests")
test('behavior: while the node fails, a window in its grace interval is said to be stale', { timeout: 60_000 }, async () => {
  const feed = chainFeed(chainAt(node.url), feedSettings({ warmMs: 0, waitMs: 0 }))
  // the cache rules read the clock: only Date is faked, so the network and vi.waitFor run on real time
  vi.useFakeTimers({ toFake: ['Date'] })
  const t0 = Date.now()
  const fresh = await feed.get()
  expect(fresh.stale).toBe(false)

  node.mode = 'garbage'
  vi.setSystemTime(t0 + 13_000) // expired, within the grace interval: answered at once, read behind
  expect((await feed.get()).stale).toBe(false) // nothing has failed yet
  // once the background read has failed (garbage answers at once), the same window is stale
  await until(async () => expect((await feed.get()).stale).toBe(true), { timeout: 10_000 })
  expect(await failedReads()).toBe(1)

  vi.setSystemTime(t0 + 13_500) // within the 1 s failure back-off
  expect((await feed.get()).stale).toBe(true)
  vi.setSystemTime(t0 + 15_000) // past the back-off, still within the grace interval: read behind again
  const later = await feed.get()
  expect(later.stale).toBe(true)
  expect(later.window.headNumber).toBe(fresh.window.headNumber)
  await until(async () => expect(await failedReads()).toBe(2), { timeout: 10_000 })

  node.mode = 'ok'
  // the node answers again: the old window is still served at once, marked stale (no request waits
  // for the upstream), and the read started behind it brings current data
  vi.setSystemTime(t0 + 30_000)
  expect((await feed.get()).stale).toBe(true)
  await until(async () => expect((await feed.get()).stale).toBe(false), { timeout: 10_000 })
  expect((await feed.get()).window.fetchedAt).toBeGreaterThanOrEqual(t0 + 30_000)
})
