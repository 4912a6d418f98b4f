import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { api, basic, ctx, eventually, metrics } from './helpers'

describe('/metrics', () => {
  test('error: only its bearer token opens it; API keys do not', async () => {
    const refused = [null, basic(ctx().credentials.plain), `Bearer ${ctx().metricsToken}x`, `Basic ${ctx().metricsToken}`, 'Bearer']
    for (const auth of refused) {
      const res = await metrics(auth)
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="gas-api-metrics"')
      expect(res.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' })
    }
  })

  test('behavior: counts requests, upstream reads and cache outcomes; reports data age', async () => {
    const path = `/networks/${ctx().chains.live}/busyThreshold`
    const before = Date.now()
    let last: Awaited<ReturnType<typeof api>> | undefined
    for (let i = 0; i < 3; i++) {
      last = await api(path)
      expect(last.status).toBe(200)
    }
    const intervalSeconds = Number(last?.headers.get('x-block-interval-ms')) / 1000
    await api(`/networks/${ctx().chains.unlisted}/busyThreshold`)
    // a failed upstream read of its own, whichever tests ran before
    await api(`/networks/${ctx().chains.garbage}/busyThreshold`)
    const metricsSent = Date.now() / 1000
    const res = await metrics()
    const metricsAnswered = Date.now() / 1000
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
    const text = String(res.body)
    const value = (re: RegExp) => Number(re.exec(text)?.[1] ?? Number.NaN)
    expect(value(/^gas_api_requests_total\{route="busyThreshold",status="200"\} (\d+)$/m)).toBeGreaterThanOrEqual(3)
    expect(value(/^gas_api_requests_total\{route="busyThreshold",status="400"\} (\d+)$/m)).toBeGreaterThanOrEqual(1)
    expect(value(/^gas_api_upstream_reads_total\{chain="31337",result="ok"\} (\d+)$/m)).toBeGreaterThanOrEqual(1)
    expect(value(/^gas_api_upstream_reads_total\{chain="31340",result="UpstreamBadResponseError"\} (\d+)$/m)).toBeGreaterThanOrEqual(1)
    expect(value(/^gas_api_cache_total\{chain="31337",outcome="hit"\} (\d+)$/m)).toBeGreaterThanOrEqual(1)
    // durations: every answer counted above is in the histogram; every upstream read is timed
    expect(value(/^gas_api_request_duration_seconds_count\{route="busyThreshold",status="200"\} (\d+)$/m)).toBe(
      value(/^gas_api_requests_total\{route="busyThreshold",status="200"\} (\d+)$/m),
    )
    expect(value(/^gas_api_upstream_read_duration_seconds_count\{chain="31337"\} (\d+)$/m)).toBe(
      value(/^gas_api_upstream_reads_total\{chain="31337",result="ok"\} (\d+)$/m) +
        [...text.matchAll(/^gas_api_upstream_reads_total\{chain="31337",result="(?!ok")[^"]*"\} (\d+)$/gm)].reduce(
          (n, m) => n + Number(m[1]),
          0,
        ),
    )
    // the process metrics, once each (one registry per process, however many route bundles)
    for (const name of ['nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes', 'nodejs_gc_duration_seconds'])
      expect(text.match(new RegExp(`^# TYPE ${name} `, 'gm')), name).toHaveLength(1)
    // the window held was current (at most three cache periods old) when the requests above were answered
    const age = value(/^gas_api_data_age_seconds\{chain="31337"\} ([\d.]+)$/m)
    expect(age).toBeGreaterThanOrEqual(0)
    expect(age).toBeLessThanOrEqual((Date.now() - before) / 1000 + 3 * Math.max(1, intervalSeconds) + 1)
    const block = value(/^gas_api_block_number\{chain="31337"\} (\d+)$/m)
    expect(block).toBeGreaterThan(500)
    // the head's age is the wall clock less that block's timestamp, as the node reports it
    const header = await fetch(ctx().nodeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: [`0x${block.toString(16)}`, false] }),
    })
    const ts = Number(((await header.json()) as { result: { timestamp: string } }).result.timestamp)
    const headAge = value(/^gas_api_head_age_seconds\{chain="31337"\} (-?\d+)$/m)
    expect(headAge).toBeGreaterThanOrEqual(Math.floor(metricsSent - ts) - 1)
    expect(headAge).toBeLessThanOrEqual(Math.ceil(metricsAnswered - ts) + 1)
  })
})

describe('request logs', () => {
  test('behavior: one JSON line per API request with route, chain, status, duration and key name, never the secret', async () => {
    const res = await api(`/networks/${ctx().chains.live}/baseFeeHistory`)
    const requestLines = () =>
      readFileSync(ctx().logFile, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('{"level":"info"') && l.includes('"msg":"request"'))
    // the server writes its log lines asynchronously; other tests' requests (a HEAD among them) may share the block
    const mine = await eventually(async () => {
      const found = requestLines()
        .map((l) => JSON.parse(l))
        .filter((l) => l.route === 'baseFeeHistory' && l.method === 'GET' && l.block === res.headers.get('x-block-number'))
      return found.length > 0 ? found : undefined
    }, "the request's log line")
    const lines = requestLines()
    expect(mine[0]).toMatchObject({ method: 'GET', chainId: String(ctx().chains.live), status: 200, key: ctx().credentials.plain[0] })
    expect(typeof mine[0].ms).toBe('number')
    expect(lines.join('\n')).not.toContain(ctx().credentials.plain[1])
  })
})
