import { describe, expect, test } from 'vitest'
import { api, ctx } from './helpers'

const setMode = (mode: string) => fetch(`${ctx().flakyNode}/__mode/${mode}`, { method: 'POST' })
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('upstream failure after data was cached', () => {
  test('behavior: stale data marked as such, then 503 past MAX_STALE_SECONDS, then recovery without restart', async () => {
    const { chains, rpcTimeoutMs, maxStaleSeconds } = ctx()
    const path = `/networks/${chains.flaky}/suggestedGasFees`
    await setMode('ok')
    const fresh = await api(path)
    expect(fresh.status).toBe(200)
    expect(fresh.headers.get('x-data-stale')).toBe('false')

    await setMode('hang')
    await sleep(2_200) // past the 1 s freshness of this chain and the one-interval grace
    const started = Date.now()
    const stale = await api(path)
    expect(Date.now() - started).toBeLessThan(rpcTimeoutMs + 1_000)
    expect(stale.status).toBe(200)
    expect(stale.headers.get('x-data-stale')).toBe('true')
    expect(stale.headers.get('cache-control')).toBe('no-store')
    expect(stale.headers.get('warning')).toMatch(/^110 /)
    expect(stale.headers.get('x-block-number')).toBe(fresh.headers.get('x-block-number'))
    expect(stale.body).toEqual(fresh.body)

    await sleep(maxStaleSeconds * 1_000)
    const expired = await api(path)
    expect(expired.status).toBe(503)
    expect(expired.headers.get('retry-after')).toMatch(/^\d+$/)

    await setMode('ok')
    await sleep(1_100) // past the failure back-off
    const recovered = await api(path)
    expect(recovered.status).toBe(200)
    expect(recovered.headers.get('x-data-stale')).toBe('false')
  })
})
