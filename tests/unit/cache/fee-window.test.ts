import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { startFakeRpc, type FakeRpc } from '../../support/fake-rpc'
import { mainnetFakeChain } from '../../support/mainnet-blocks'

// the fake chain replays 2022 mainnet blocks (head-age staleness has its own test)
process.env.MAX_HEAD_AGE_SECONDS = '0'
// unstable_cache needs a Next request context; here it is a pass-through, the cache rules are ours
vi.mock('next/cache', () => ({ unstable_cache: <T>(fn: T) => fn }))
const { getFeeWindow } = await import('@/lib/cache/fee-window')

let node: FakeRpc
beforeAll(async () => {
  node = await startFakeRpc({ chainId: 1, ...mainnetFakeChain(12) }) // 12 s blocks: 12 s fresh, 12 s grace
})
afterAll(async () => {
  vi.restoreAllMocks()
  await node.close()
})

test('behavior: while the node fails, a window in its grace interval is said to be stale', async () => {
  const chain = { id: 1, name: 'test', rpcUrls: [node.url] }
  const t0 = Date.now()
  const clock = vi.spyOn(Date, 'now')
  clock.mockReturnValue(t0)
  const fresh = await getFeeWindow(chain)
  expect(fresh.stale).toBe(false)

  node.mode = 'garbage'
  clock.mockReturnValue(t0 + 13_000) // expired, within the grace interval: answered at once, read behind
  expect((await getFeeWindow(chain)).stale).toBe(false) // nothing has failed yet
  await new Promise((r) => setTimeout(r, 100)) // the background read fails (garbage answers at once)

  clock.mockReturnValue(t0 + 13_500) // within the 1 s failure back-off
  expect((await getFeeWindow(chain)).stale).toBe(true)
  clock.mockReturnValue(t0 + 15_000) // past the back-off, still within the grace interval
  const later = await getFeeWindow(chain)
  expect(later.stale).toBe(true)
  expect(later.window.headNumber).toBe(fresh.window.headNumber)
  await new Promise((r) => setTimeout(r, 100))

  node.mode = 'ok'
  clock.mockReturnValue(t0 + 30_000) // past the grace: waits for a read, which now succeeds
  const recovered = await getFeeWindow(chain)
  expect(recovered.stale).toBe(false)
})
