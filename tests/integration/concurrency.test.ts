import { describe, expect, test } from 'vitest'
import { api, ctx, proxyCounts, resetProxy } from './helpers'

const ENDPOINTS = ['suggestedGasFees', 'busyThreshold', 'baseFeePercentile', 'baseFeeHistory']

describe('single-flight', () => {
  test('behavior: 200 concurrent requests on a cold cache cause one upstream read', async () => {
    const { coldProxy, chains } = ctx()
    await resetProxy(coldProxy)
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => api(`/networks/${chains.cold}/${ENDPOINTS[i % ENDPOINTS.length]}`)),
    )
    expect(results.map((r) => r.status)).toEqual(Array(200).fill(200))
    // the chain mines a block a second, so a slow burst may straddle two blocks: one read each
    const blocks = new Set(results.map((r) => r.headers.get('x-block-number'))).size
    expect(blocks).toBeLessThanOrEqual(2)
    const counts = await proxyCounts(coldProxy)
    expect(counts.eth_feeHistory).toBeGreaterThanOrEqual(1)
    expect(counts.eth_feeHistory).toBeLessThanOrEqual(blocks)
  })

  test('behavior: the live chain is read about once per block however many clients ask', async () => {
    const { mainProxy, chains } = ctx()
    const first = await api(`/networks/${chains.live}/busyThreshold`)
    await resetProxy(mainProxy)
    const deadline = Date.now() + 4_000
    let last = first
    while (Date.now() < deadline) {
      const batch = await Promise.all(Array.from({ length: 20 }, () => api(`/networks/${chains.live}/suggestedGasFees`)))
      last = batch[batch.length - 1]
    }
    const blocks = Number(last.headers.get('x-block-number')) - Number(first.headers.get('x-block-number'))
    const counts = await proxyCounts(mainProxy)
    expect(blocks).toBeGreaterThanOrEqual(2)
    expect(counts.eth_feeHistory).toBeLessThanOrEqual(blocks + 2)
  })
})
