// GET /openapi.json on the running service, and an answer of every documented operation checked
// against it (api() checks each answer: tests/support/contract.ts).
import { describe, expect, test } from 'vitest'
import { openApiDocument } from '@/lib/http/openapi'
import { api, ctx, metrics } from './helpers'

describe('GET /openapi.json', () => {
  test('default: the generated document, without credentials, cacheable', async () => {
    const res = await api('/openapi.json', { auth: null })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(res.headers.get('cache-control')).toBe('public, max-age=300')
    expect(res.body).toEqual(openApiDocument())
  })

  test('behavior: credentials are not needed, and wrong ones are not refused', async () => {
    expect((await api('/openapi.json', { auth: 'Basic d3Jvbmc6d3Jvbmc=' })).status).toBe(200)
  })
})

describe('every documented GET answers within the contract', () => {
  const paths = () => {
    const live = ctx().chains.live
    return [
      `/networks/${live}/suggestedGasFees`,
      `/networks/${live}/busyThreshold`,
      `/networks/${live}/baseFeePercentile`,
      `/networks/${live}/baseFeeHistory`,
      `/networks/${live}/baseFeeForecast`,
      `/networks/${live}/accuracy`,
      // the devnet's anvil reports blobs
      `/networks/${live}/blobFees`,
      '/v1/supportedNetworks',
      '/v1/supportedChainNames',
      '/healthz',
    ]
  }
  test('default: 200s', async () => {
    for (const path of paths()) expect((await api(path)).status, path).toBe(200)
  })

  test('behavior: /readyz, ready or not (some chains of this suite never become ready), and /metrics', async () => {
    expect([200, 503]).toContain((await api('/readyz', { auth: null })).status)
    expect((await metrics()).status).toBe(200)
    expect((await metrics(null)).status).toBe(401)
  })

  test('errors: 400, 401, 405 and OPTIONS on each chain endpoint', async () => {
    for (const path of paths().filter((p) => p.startsWith('/networks/'))) {
      const other = path.replace(String(ctx().chains.live), String(ctx().chains.unlisted))
      expect((await api(other)).status, other).toBe(400)
      expect((await api(path, { auth: null })).status, path).toBe(401)
      expect((await api(path, { method: 'DELETE' })).status, path).toBe(405)
      expect((await api(path, { method: 'OPTIONS' })).status, path).toBe(204)
    }
  })
})
