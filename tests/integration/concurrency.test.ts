import { describe, expect, test } from 'vitest'
import { api, ctx, eventually, proxyCounts, resetProxy } from './helpers'

const ENDPOINTS = ['suggestedGasFees', 'busyThreshold', 'baseFeePercentile', 'baseFeeHistory']

describe('single-flight', () => {
  test('behavior: 200 concurrent requests on a cold cache cause one upstream read', async () => {
    const { coldProxy, chains } = ctx()
    await resetProxy(coldProxy)
    const started = Date.now()
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => api(`/networks/${chains.cold}/${ENDPOINTS[i % ENDPOINTS.length]}`)),
    )
    // every request waited for the one read. On a loaded machine that read (a dead first URL, then
    // failover) can outlast RPC_TIMEOUT_MS: a request whose own deadline passed gets the honest 503,
    // and the failure is remembered for a second; nothing else is allowed
    const failed = results.filter((r) => r.status !== 200)
    for (const r of failed) {
      expect(r.status).toBe(503)
      expect(r.body.message).toMatch(/did not answer/)
    }
    const ok = results.filter((r) => r.status === 200)
    if (ok.length === 0)
      ok.push(
        await eventually(async () => {
          const r = await api(`/networks/${chains.cold}/busyThreshold`)
          return r.status === 200 ? r : undefined
        }, 'an answer once the read completed'),
      )
    const counts = await proxyCounts(coldProxy)
    expect(counts.eth_feeHistory).toBeGreaterThanOrEqual(1)
    // one read for the whole burst. The chain mines a block every 5 s: a burst that straddles a new
    // block, or outlasts a window's freshness (one interval) on a slow machine, earns one more read
    // each; a read that failed its deadline earns one retry
    const blocks = new Set(ok.map((r) => r.headers.get('x-block-number'))).size
    const interval = Number(ok[0]?.headers.get('x-block-interval-ms'))
    expect(counts.eth_feeHistory).toBeLessThanOrEqual(blocks + Math.floor((Date.now() - started) / interval) + (failed.length > 0 ? 1 : 0))
  })

  test('behavior: the live chain is read about once per block, never once per request, however many clients ask', async () => {
    const { mainProxy, chains } = ctx()
    const first = await api(`/networks/${chains.live}/busyThreshold`)
    await resetProxy(mainProxy)
    // batches of 20 concurrent requests until the answers have moved on by 4 blocks
    const blockOf = (r: { headers: Headers }) => Number(r.headers.get('x-block-number'))
    const deadline = Date.now() + 60_000
    let blocks = 0
    let requests = 0
    while (blocks < 4) {
      expect(Date.now(), 'the devnet stopped producing blocks').toBeLessThan(deadline)
      const batch = await Promise.all(Array.from({ length: 20 }, () => api(`/networks/${chains.live}/suggestedGasFees`)))
      requests += batch.length
      blocks = Math.max(...batch.map(blockOf)) - blockOf(first)
    }
    const reads = (await proxyCounts(mainProxy)).eth_feeHistory ?? 0
    // about one read per block, never one per request. A window is fresh for one measured interval,
    // so even when the node's blocks come late (a slow machine) a read per interval is at most two
    // per block; the requests outnumber the reads many times over
    expect(reads).toBeGreaterThanOrEqual(1)
    expect(reads).toBeLessThanOrEqual(2 * blocks + 2)
    expect(requests).toBeGreaterThanOrEqual(4 * reads)
  })
})
