// Two `next start` instances sharing one Debian redis-server (REDIS_URL), against one anvil behind a
// counting proxy: same data, one upstream read per block for the pair, one rate limit, and no
// failed request when Redis dies, hangs or comes back.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@redis/client'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { load } from '@/scripts/bench/load'
import { startCountingProxy, type CountingProxy } from '@/scripts/devnet/counting-proxy'
import { startDevnet, type Devnet } from '@/scripts/devnet/devnet'
import { rpc } from '@/scripts/devnet/json-rpc'
import { startRedis, type RedisServer } from '@/scripts/devnet/redis'
import { startService, type Service } from '@/scripts/devnet/service'
import { openFromAddress } from '../support/from-address'
import { basic, eventually } from './helpers'

const CHAIN = 31346
const LOAD: [string, string] = ['pair', 'pair-secret-of-the-test'] // a large quota, so every request goes through Redis' counter
const LIMITED: [string, string] = ['pair-limited', 'six-requests-an-hour']
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

const METRICS_TOKEN = 'pair-metrics-token-of-the-test'
async function metrics(svc: Service): Promise<string> {
  return (await fetch(`${svc.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text()
}
const metric = (text: string, re: RegExp) => Number(re.exec(text)?.[1] ?? Number.NaN)
/** Windows this instance took from the shared store instead of reading them itself. */
const joined = (text: string) =>
  [...text.matchAll(/^gas_api_shared_reads_total\{chain="\d+",source="joined"\} (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0)

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
 * Request loops, `workers` per instance, until `stopped` is set. Counts what a client would mind: any
 * answer that is not a 200; and how many requests were answered, in all and among those sent after
 * `marked` was set. (Whether an answer is current depends on how fast the reads are on this machine;
 * that Redis trouble causes no failed upstream read is checked on the counters.)
 */
function hammer(workers = 4) {
  const h = { bad: [] as string[], count: 0, afterMark: 0, marked: false, stopped: false, done: Promise.resolve() }
  h.done = Promise.all(
    [a, b].flatMap((svc) =>
      Array.from({ length: workers }, async () => {
        while (!h.stopped) {
          const sentAfterMark = h.marked
          const res = await get(svc, path())
          await res.arrayBuffer()
          h.count++
          if (sentAfterMark) h.afterMark++
          if (res.status !== 200) h.bad.push(`${res.status} stale=${res.headers.get('x-data-stale')}`)
        }
      }),
    ),
  ).then(() => {})
  return h
}
/** Upstream reads of the pair's chain that failed, over both instances. */
async function failedReads(): Promise<number> {
  let n = 0
  for (const svc of [a, b]) {
    const text = await metrics(svc)
    for (const m of text.matchAll(/^gas_api_upstream_reads_total\{chain="31346",result="(?!ok")[^"]*"\} (\d+)$/gm)) n += Number(m[1])
  }
  return n
}
const until = (cond: () => boolean | Promise<boolean>, what: string) => eventually(async () => ((await cond()) ? true : undefined), what)

beforeAll(async () => {
  redis = await startRedis({ password: REDIS_PASSWORD })
  devnet = await startDevnet({ chainId: CHAIN, blockTimeSec: 1, seedBlocks: 60, liveTraffic: false })
  proxy = await startCountingProxy(devnet.url)
  const dir = mkdtempSync(join(tmpdir(), 'gas-api-pair-'))
  logs = [join(dir, 'a.log'), join(dir, 'b.log')]
  const env = {
    API_KEYS: `${LOAD.join(':')}, ${LIMITED.join(':')}`,
    METRICS_TOKEN,
    RATE_LIMITS: `${LOAD[0]}=1000000/3600, ${LIMITED[0]}=6/3600`,
    USE_PUBLIC_RPCS: 'false',
    REQUEST_LOG: 'false',
    RPC_TIMEOUT_MS: '1500',
    REDIS_URL: redis.url,
    [`RPC_URL_${CHAIN}`]: proxy.url,
    // the keyless tier's stream ceilings, held across the pair through Redis
    PUBLIC_ACCESS: 'true',
    STREAM_MAX_PER_KEY: '1',
    PUBLIC_STREAM_LIMIT: '2',
  }
  const started = await Promise.all(logs.map((logFile) => startService({ env, logFile })))
  ;[a, b] = [started[0]!, started[1]!]
  // warm both
  for (const svc of [a, b]) expect((await get(svc, path())).status).toBe(200)
}, 180_000)

afterAll(async () => {
  for (const stop of [a?.stop, b?.stop, proxy?.close, devnet?.stop, redis?.stop]) await stop?.().catch(() => {})
})

describe('two instances, one Redis', () => {
  test('behavior: each window is in Redis once: the published copy, never also as a Next cache entry', async () => {
    expect(await redisKeys('gas-api:v4:window:*')).toEqual([expect.stringMatching(new RegExp(`^gas-api:v4:window:${CHAIN}:[0-9a-f]{16}$`))])
    const keys = await redisKeys('gas-api:next:*')
    const c = createClient({ url: redis.url })
    await c.connect()
    try {
      for (const key of keys) {
        // other key types (the handler's tag hashes) answer WRONGTYPE: they hold no window either
        const value = await c.get(key).catch(() => null)
        expect(value ?? '', key).not.toContain('baseFeePerGas')
      }
      // the published window carries when its next read is due and the read timing's state, so the
      // instance that reads next continues from it (lib/feed/read-timing/next-read.ts nextRead)
      const [windowKey] = await redisKeys('gas-api:v4:window:*')
      const published = JSON.parse((await c.get(windowKey!)) ?? 'null') as {
        fetchedAt: number
        nextReadAt?: number
        readPhase?: { loMs: number; hiMs: number; stepMs: number; lastStartedAt: number }
      }
      expect(published.nextReadAt).toBeGreaterThan(published.fetchedAt)
      expect(published.readPhase, 'the published window has no readPhase').toBeDefined()
      expect(published.readPhase?.lastStartedAt).toBeLessThanOrEqual(published.fetchedAt)
      expect(published.readPhase!.hiMs).toBeGreaterThan(published.readPhase!.loMs)
      expect(published.readPhase!.stepMs).toBeGreaterThan(0)
    } finally {
      c.destroy()
    }
  })

  test("behavior: both instances serve the same block's data", async () => {
    let same = 0
    const rounds = 16
    for (let i = 0; i < rounds; i++) {
      const [ra, rb] = await Promise.all([get(a, path()), get(b, path())])
      const [ta, tb] = await Promise.all([ra.text(), rb.text()])
      expect([ra.status, rb.status]).toEqual([200, 200])
      if (ra.headers.get('x-block-number') === rb.headers.get('x-block-number')) {
        same++
        if (ta !== tb) console.log('DIFF', ra.headers.get('x-block-interval-ms'), rb.headers.get('x-block-interval-ms'), ta, tb)
        expect(ta).toBe(tb)
      }
      await sleep(230)
    }
    // a pair of requests can straddle the moment the pair moves to the next block
    expect(same).toBeGreaterThanOrEqual(rounds / 2)
  })

  test('behavior: under load, the pair shares its upstream reads: one read serves both instances', async () => {
    const before = await head()
    proxy.reset()
    const joinedBefore = (await Promise.all([a, b].map(metrics))).reduce((n, t) => n + joined(t), 0)
    const auth = { authorization: basic(LOAD) }
    const results = await Promise.all([a, b].map((svc) => load(`${svc.url}${path()}`, { connections: 8, seconds: 8, headers: auth })))
    const blocks = (await head()) - before
    const reads = proxy.counts()['<http>'] ?? 0
    const requests = results.reduce((n, r) => n + r.requests, 0)
    const joinedNow = (await Promise.all([a, b].map(metrics))).reduce((n, t) => n + joined(t), 0)
    console.log(
      `pair under load: ${results.map((r) => Math.round(r.rps)).join(' + ')} req/s, ${reads} upstream reads for ${blocks} new blocks, ${joinedNow - joinedBefore} windows taken from the other instance`,
    )
    expect(results.map((r) => r.errors)).toEqual([0, 0])
    expect(blocks).toBeGreaterThanOrEqual(1)
    // windows one instance read reached the other through Redis (how many depends on how the two
    // instances' reads interleave: npm run bench:scale-out measures the rate) ...
    expect(joinedNow - joinedBefore).toBeGreaterThan(0)
    // ... and reads follow blocks, never requests: each instance alone reads at most about once a
    // block interval, so the pair reads at most about twice per block (blocks can come late on a slow
    // machine: one more each), while the requests outnumber the reads many times over
    expect(reads).toBeLessThanOrEqual(2 * blocks + 4)
    expect(requests).toBeGreaterThanOrEqual(10 * reads)
  })

  test('behavior: one rate limit spans both instances', async () => {
    // a Redis command that timed out under the load test above leaves an instance counting in its own memory for a
    // second (degraded mode): the quota is shared once both are back in shared mode
    for (const svc of [a, b])
      await until(async () => metric(await metrics(svc), /^gas_api_shared_store_up (\d)$/m) === 1, 'both instances in shared mode')
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

  test('behavior: stream ceilings hold across the pair: one keyless stream per address, two for the keyless tier, whichever instance is asked', async () => {
    for (const svc of [a, b])
      await until(async () => metric(await metrics(svc), /^gas_api_shared_store_up (\d)$/m) === 1, 'both instances in shared mode')
    const stream = (svc: Service) => `${svc.url}/networks/${CHAIN}/stream`
    const open: { close(): void }[] = []
    try {
      const first = await openFromAddress('127.0.0.41', stream(a))
      expect(first.status).toBe(200)
      open.push(first)
      // the same address on the other instance: its slot is taken
      const again = await openFromAddress('127.0.0.41', stream(b), { 'x-forwarded-for': '198.51.100.41' })
      expect(again.status).toBe(429)
      const second = await openFromAddress('127.0.0.42', stream(b))
      expect(second.status).toBe(200)
      open.push(second)
      // the tier's two slots are taken on the pair
      const third = await openFromAddress('127.0.0.43', stream(a))
      expect(third.status).toBe(503)
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0)
      expect(await redisKeys('gas-api:stream-slots:*')).toEqual(expect.arrayContaining(['gas-api:stream-slots:keyless']))
    } finally {
      for (const s of open) s.close()
    }
    // closed streams give their slots back
    await eventually(async () => {
      const s = await openFromAddress('127.0.0.43', stream(a))
      s.close()
      return s.status === 200 ? true : undefined
    }, 'a slot freed by the closed streams')
  })

  test('behavior: killing Redis fails no request and no upstream read; both instances go back to shared mode when it returns', async () => {
    const port = redis.port
    const storeUp = async (svc: Service) => metric(await metrics(svc), /^gas_api_shared_store_up (\d)$/m)
    // requests run before the kill, and go on until both instances have noticed it and answered
    // more requests since
    const failedBefore = await failedReads()
    const down = hammer()
    await until(() => down.count >= 8, 'answers before the kill')
    redis.process.kill('SIGKILL')
    down.marked = true
    for (const svc of [a, b]) await until(async () => (await storeUp(svc)) === 0, 'the instance to notice Redis is gone')
    const seen = down.afterMark
    await until(() => down.afterMark >= seen + 16, 'answers with Redis gone')
    down.stopped = true
    await down.done
    expect(down.bad).toEqual([])

    redis = await startRedis({ port, password: REDIS_PASSWORD })
    const back = hammer()
    for (const svc of [a, b]) await until(async () => (await storeUp(svc)) === 1, 'the instance to use Redis again')
    await until(async () => (await redisKeys('gas-api:v4:window:*')).length > 0, 'a window in the fresh Redis')
    await until(async () => (await redisKeys(`gas-api:v3:rate:*:${LOAD[0]}`)).length > 0, 'a rate counter in the fresh Redis')
    back.stopped = true
    await back.done
    expect(back.count).toBeGreaterThan(0)
    expect(back.bad).toEqual([])
    // Redis dying and coming back made no read of the node fail
    expect(await failedReads()).toBe(failedBefore)
    // the fresh Redis holds the pair's state again: the window one of them published, the rate counter
    expect(await redisKeys('gas-api:v4:window:*')).toEqual([expect.stringMatching(new RegExp(`^gas-api:v4:window:${CHAIN}:[0-9a-f]{16}$`))])
    expect((await redisKeys(`gas-api:v3:rate:*:${LOAD[0]}`)).length).toBeGreaterThan(0)
    for (const file of logs) {
      const text = readFileSync(file, 'utf8')
      expect(text).toContain('"msg":"shared store unavailable: this instance serves from its own memory and the upstream"')
      expect(text).toContain('"msg":"shared store reachable again: shared mode"')
      expect(text).not.toContain(REDIS_PASSWORD)
    }
  })

  test('behavior: a Redis that hangs (SIGSTOP) fails no request and no upstream read', async () => {
    // requests keep being answered, with current data, while Redis is frozen
    const failedBefore = await failedReads()
    const h = hammer()
    await until(() => h.count >= 8, 'answers before the freeze')
    redis.process.kill('SIGSTOP')
    h.marked = true
    try {
      await until(() => h.afterMark >= 16, 'answers while Redis is frozen')
    } finally {
      redis.process.kill('SIGCONT')
    }
    h.stopped = true
    await h.done
    expect(h.bad).toEqual([])
    expect(await failedReads()).toBe(failedBefore)
    // how long a request takes while Redis hangs is a speed figure, not asserted here
  })
})
