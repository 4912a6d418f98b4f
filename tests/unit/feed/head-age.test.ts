import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { startFakeRpc, type FakeRpc } from '../../support/fake-rpc'
import { mainnetFakeChain } from '../../support/mainnet-blocks'
import { makeWindow } from '../../support/windows'
import { chainAt, feedSettings } from '../../support/feed'

// unstable_cache needs a Next request context; here it is a pass-through
vi.mock('next/cache', () => ({ unstable_cache: <T>(fn: T) => fn }))
vi.mock('next/server', () => ({ after: () => {} }))
const { chainFeed } = await import('@/lib/feed/feeds')
const { headLagging } = await import('@/lib/feed/rules')

const window = (intervalMs: number) => ({ ...makeWindow({ baseFees: [1n], next: 1n, intervalMs }), headTimestamp: 1_700_000_000 })
const at = (secondsAfterHead: number) => (1_700_000_000 + secondsAfterHead) * 1000

describe('headLagging', () => {
  test('default: a head older than 60 s by the wall clock is lagging on a fast chain', () => {
    expect(headLagging(window(2_000), at(59), undefined)).toBe(false)
    expect(headLagging(window(2_000), at(61), undefined)).toBe(true)
  })

  test('default: 10 block intervals on a slow chain (missed slots are normal)', () => {
    expect(headLagging(window(12_000), at(119), undefined)).toBe(false)
    expect(headLagging(window(12_000), at(121), undefined)).toBe(true)
  })

  test('behavior: a clock a little behind the chain is not lagging', () => {
    expect(headLagging(window(12_000), at(-5), undefined)).toBe(false)
  })
})

// real HTTP to a fake node: a budget for a loaded machine (docs/development.md, "Slow tests")
describe('a chain feed', { timeout: 30_000 }, () => {
  let node: FakeRpc
  beforeAll(async () => {
    node = await startFakeRpc({ chainId: 1, ...mainnetFakeChain(12) })
  })
  afterAll(async () => {
    vi.restoreAllMocks()
    await node.close()
  })

  test('behavior: a node that answers but stopped following the chain is served as stale, never as current', async () => {
    const feed = chainFeed(chainAt(node.url), feedSettings({ warmMs: 0, maxHeadAgeMs: undefined }))
    const { blocks } = mainnetFakeChain(12)
    const head = blocks.at(-1)
    if (!head) throw new Error('the mainnet window has no blocks')
    const headAt = head.timestamp
    const clock = vi.spyOn(Date, 'now')
    clock.mockReturnValue((headAt + 30) * 1000) // 30 s after the head: a live chain
    const live = await feed.get()
    expect(live.stale).toBe(false)
    clock.mockReturnValue((headAt + 20 * 12) * 1000 + 1) // the same head 20 slots later: the node is stuck
    const stuck = await feed.get()
    expect(stuck.window.headNumber).toBe(live.window.headNumber)
    expect(stuck.stale).toBe(true)
  })
})
