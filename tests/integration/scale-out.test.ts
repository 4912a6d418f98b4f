// Two `next start` instances sharing one Debian redis-server (REDIS_URL), against one anvil behind a
// counting proxy: same data, one upstream read per block for the pair, one rate limit, and no
// failed request when Redis dies, hangs or comes back.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@redis/client'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { load } from '@/lib/bench/load'
import { startCountingProxy, type CountingProxy } from '@/lib/devnet/counting-proxy'
import { startDevnet, type Devnet } from '@/lib/devnet/devnet'
import { rpc } from '@/lib/devnet/json-rpc'
import { startRedis, type RedisServer } from '@/lib/devnet/redis'
import { startService, type Service } from '@/lib/devnet/service'
import { basic } from './helpers'

const CHAIN = 31346
const LOAD: [string, string] = ['pair', 'pair-secret'] // a large quota, so every request goes through Redis' counter
const LIMITED: [string, string] = ['pair-limited', 'six-an-hour']
// the Redis password is in REDIS_URL, as in production: it must never reach a log
const REDIS_PASSWORD = 'redis-pw-must-not-leak'

let redis: RedisServer
let devnet: Devnet
let proxy: CountingProxy
let a: Service
let b: Service
let logs: [string, string]

const path = (endpoint = 'suggestedGasFees') => `/networks/${CHAIN}/${endpoint}`
const get = (svc: Service, p: string, cred = LOAD) => fetch(`${svc.url}${p}`, { headers: { authorization: basic(cred) } })
const head = async () => Number(await rpc<string>(devnet.url, 'eth_blockNumber'))
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function metrics(svc: Service): Promise<string> {
  return (await get(svc, '/metrics')).text()
}
const metric = (text: string, re: RegExp) => Number(re.exec(text)?.[1] ?? Number.NaN)

async function redisKeys(pattern: string): Promise<string[]> {
  const c = createClient({ url: redis.url })
  await c.connect()
  try {
    return await c.keys(pattern)
  } finally {
    c.destroy()
  }
}

/**
 * Requests from `workers` loops per instance for `ms`. Returns what a client would mind: any answer
 * that is not a 200 with current data, and the slowest answer (ms).
 */
async function hammer(ms: number, workers = 4): Promise<{ bad: string[]; slowestMs: number; count: number }> {
  const bad: string[] = []
  let slowestMs = 0
  let count = 0
  const until = Date.now() + ms
  await Promise.all([a, b].flatMap((svc) => Array.from({ length: workers }, async () => {
    while (Date.now() < until) {
      const t0 = performance.now()
      const res = await get(svc, path())
      await res.arrayBuffer()
      slowestMs = Math.max(slowestMs, performance.now() - t0)
      count++
      if (res.status !== 200 || res.headers.get('x-data-stale') !== 'false') bad.push(`${res.status} stale=${res.headers.get('x-data-stale')}`)
    }
  })))
  return { bad, slowestMs, count }
}

beforeAll(async () => {
  redis = await startRedis({ password: REDIS_PASSWORD })
  devnet = await startDevnet({ chainId: CHAIN, blockTimeSec: 1, seedBlocks: 60, liveTraffic: false })
  proxy = await startCountingProxy(devnet.url)
  const dir = mkdtempSync(join(tmpdir(), 'gas-api-pair-'))
  logs = [join(dir, 'a.log'), join(dir, 'b.log')]
  const env = {
    API_KEYS: `${LOAD.join(':')}, ${LIMITED.join(':')}`,
    RATE_LIMITS: `${LOAD[0]}=1000000/3600, ${LIMITED[0]}=6/3600`,
    USE_PUBLIC_RPCS: 'false',
    REQUEST_LOG: 'false',
    RPC_TIMEOUT_MS: '1500',
    REDIS_URL: redis.url,
    [`RPC_URL_${CHAIN}`]: proxy.url,
  }
  ;[a, b] = await Promise.all(logs.map((logFile) => startService({ env, logFile })))
  // warm both
  for (const svc of [a, b]) expect((await get(svc, path())).status).toBe(200)
}, 180_000)

afterAll(async () => {
  for (const stop of [a?.stop, b?.stop, proxy?.close, devnet?.stop, redis?.stop]) await stop?.().catch(() => {})
})

describe('two instances, one Redis', () => {
  test('behavior: Next\'s cache handler stores unstable_cache entries in Redis', async () => {
    expect((await redisKeys('gas-api:next:*')).length).toBeGreaterThan(0)
    expect((await redisKeys('gas-api:v1:window:*'))).toEqual([`gas-api:v1:window:${CHAIN}`])
  })

  test('behavior: both instances serve the same block\'s data', async () => {
    const before = await head()
    proxy.reset()
    let same = 0
    const rounds = 16
    for (let i = 0; i < rounds; i++) {
      const [ra, rb] = await Promise.all([get(a, path()), get(b, path())])
      const [ta, tb] = await Promise.all([ra.text(), rb.text()])
      expect([ra.status, rb.status]).toEqual([200, 200])
      if (ra.headers.get('x-block-number') === rb.headers.get('x-block-number')) {
        same++
        expect(ta).toBe(tb)
      }
      await sleep(230)
    }
    // a pair of requests can straddle the moment the pair moves to the next block (~20 ms a second)
    expect(same).toBeGreaterThanOrEqual(rounds - 1)
    // one read per block for the pair, not one per instance
    const blocks = (await head()) - before
    expect(proxy.counts()['<http>'] ?? 0).toBeLessThanOrEqual(blocks + 1)
  })

  test('behavior: under load, the pair reads the upstream about once per new block', async () => {
    const before = await head()
    proxy.reset()
    const auth = { authorization: basic(LOAD) }
    const results = await Promise.all([a, b].map((svc) => load(`${svc.url}${path()}`, { connections: 8, seconds: 8, headers: auth })))
    const blocks = (await head()) - before
    const reads = proxy.counts()['<http>'] ?? 0
    console.log(`pair under load: ${results.map((r) => Math.round(r.rps)).join(' + ')} req/s, ${reads} upstream reads for ${blocks} new blocks`)
    expect(results.map((r) => r.errors)).toEqual([0, 0])
    expect(results.every((r) => r.requests > 100)).toBe(true)
    expect(blocks).toBeGreaterThanOrEqual(5)
    // two instances on their own read twice per block (npm run bench:scale-out measures 2.00)
    expect(reads / blocks).toBeLessThanOrEqual(1.35)
  })

  test('behavior: one rate limit spans both instances', async () => {
    const seen: { status: number; remaining: string | null }[] = []
    for (let i = 0; i < 8; i++) {
      const res = await get(i % 2 === 0 ? a : b, path('busyThreshold'), LIMITED)
      await res.arrayBuffer()
      seen.push({ status: res.status, remaining: res.headers.get('ratelimit-remaining') })
    }
    expect(seen.map((s) => s.status)).toEqual([200, 200, 200, 200, 200, 200, 429, 429])
    expect(seen.slice(0, 6).map((s) => s.remaining)).toEqual(['5', '4', '3', '2', '1', '0'])
    expect(metric(await metrics(b), /^gas_api_rate_limit_checks_total\{store="shared"\} (\d+)$/m)).toBeGreaterThan(0)
  })

  test('behavior: killing Redis fails no request and serves no stale data; both instances go back to shared mode when it returns', async () => {
    const port = redis.port
    const during = hammer(4_000)
    await sleep(1_000)
    redis.process.kill('SIGKILL')
    const killed = await during
    expect(killed.bad).toEqual([])
    expect(killed.count).toBeGreaterThan(50)
    for (const svc of [a, b]) expect(metric(await metrics(svc), /^gas_api_shared_store_up (\d)$/m)).toBe(0)

    redis = await startRedis({ port, password: REDIS_PASSWORD })
    const recovered = await hammer(3_000)
    expect(recovered.bad).toEqual([])
    for (const svc of [a, b]) expect(metric(await metrics(svc), /^gas_api_shared_store_up (\d)$/m)).toBe(1)
    // the fresh Redis holds the pair's state again: the window one of them published, the rate counter
    expect(await redisKeys('gas-api:v1:window:*')).toEqual([`gas-api:v1:window:${CHAIN}`])
    expect((await redisKeys(`gas-api:v1:rate:*:${LOAD[0]}`)).length).toBe(1)
    for (const file of logs) {
      const text = readFileSync(file, 'utf8')
      expect(text).toContain('"msg":"shared store unavailable: this instance serves from its own memory and the upstream"')
      expect(text).toContain('"msg":"shared store reachable again: shared mode"')
      expect(text).not.toContain(REDIS_PASSWORD)
    }
  })

  test('behavior: a Redis that hangs (SIGSTOP) fails no request and serves no stale data', async () => {
    const during = hammer(4_500)
    await sleep(800)
    redis.process.kill('SIGSTOP')
    await sleep(2_500)
    redis.process.kill('SIGCONT')
    const r = await during
    expect(r.bad).toEqual([])
    // a hung Redis costs a request at most about one REDIS_TIMEOUT_MS (250 ms) per command it waits on
    expect(r.slowestMs).toBeLessThan(1_500)
  })
})
