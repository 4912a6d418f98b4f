import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { api, ctx } from './helpers'

describe('/metrics', () => {
  test("behavior: behind the API's auth; counts requests, upstream reads and cache outcomes; reports data age", async () => {
    expect((await api('/metrics', { auth: null })).status).toBe(401)
    const path = `/networks/${ctx().chains.live}/busyThreshold`
    for (let i = 0; i < 3; i++) expect((await api(path)).status).toBe(200)
    await api(`/networks/${ctx().chains.unlisted}/busyThreshold`)
    const res = await api('/metrics')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
    const text = String(res.body)
    const value = (re: RegExp) => Number(re.exec(text)?.[1] ?? Number.NaN)
    expect(value(/^gas_api_requests_total\{route="busyThreshold",status="200"\} (\d+)$/m)).toBeGreaterThanOrEqual(3)
    expect(value(/^gas_api_requests_total\{route="busyThreshold",status="400"\} (\d+)$/m)).toBeGreaterThanOrEqual(1)
    expect(value(/^gas_api_upstream_reads_total\{chain="31337",result="ok"\} (\d+)$/m)).toBeGreaterThanOrEqual(1)
    expect(value(/^gas_api_upstream_reads_total\{chain="31340",result="UpstreamBadResponseError"\} (\d+)$/m)).toBeGreaterThanOrEqual(1)
    expect(value(/^gas_api_cache_total\{chain="31337",outcome="hit"\} (\d+)$/m)).toBeGreaterThanOrEqual(1)
    const age = value(/^gas_api_data_age_seconds\{chain="31337"\} ([\d.]+)$/m)
    expect(age).toBeGreaterThanOrEqual(0)
    expect(age).toBeLessThan(5)
    expect(value(/^gas_api_block_number\{chain="31337"\} (\d+)$/m)).toBeGreaterThan(500)
    // the live devnet mines every second: its head is current
    expect(Math.abs(value(/^gas_api_head_age_seconds\{chain="31337"\} (-?\d+)$/m))).toBeLessThan(10)
  })
})

describe('request logs', () => {
  test('behavior: one JSON line per API request with route, chain, status, duration and key name, never the secret', async () => {
    const res = await api(`/networks/${ctx().chains.live}/baseFeeHistory`)
    await new Promise((r) => setTimeout(r, 200))
    const lines = readFileSync(ctx().logFile, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{"level":"info","msg":"request"'))
    const mine = lines
      .map((l) => JSON.parse(l))
      .filter((l) => l.route === 'baseFeeHistory' && l.block === res.headers.get('x-block-number'))
    expect(mine.length).toBeGreaterThanOrEqual(1)
    expect(mine[0]).toMatchObject({ method: 'GET', chainId: String(ctx().chains.live), status: 200, key: ctx().credentials.plain[0] })
    expect(typeof mine[0].ms).toBe('number')
    expect(lines.join('\n')).not.toContain(ctx().credentials.plain[1])
  })
})
