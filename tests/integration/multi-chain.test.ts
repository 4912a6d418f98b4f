// GET /v1/suggestedGasFees and GET /v1/stream end to end: `next start` against the suite's anvil devnet and its
// berlin anvil, a fake node, a dead URL and an unlisted chain, with counting proxies in front of the live nodes.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { freePort } from '@/scripts/devnet/anvil'
import { startCountingProxy, type CountingProxy } from '@/scripts/devnet/counting-proxy'
import { startService, type Service } from '@/scripts/devnet/service'
import { openSse, type SseEvent, type SseStream } from '@/scripts/stream/sse-client'
import { ChainErrorEventSchema, ChainFeesEventSchema, MultiChainSuggestedGasFeesSchema } from '@/lib/core/contract/multi-chain-schemas'
import { ErrorBodySchema } from '@/lib/core/contract/schemas'
import { assertContract } from '../support/contract'
import { startFakeRpc, type FakeRpc } from '../support/fake-rpc'
import { fromAddress } from '../support/from-address'
import { basic, ctx, eventually } from './helpers'

const LIVE = 31_337
const FAKE = 31_511
const LEGACY = 31_339
const DOWN = 31_512
const UNLISTED = 6001
/** Chains whose nodes take the connection and never answer. */
const HANGING = [31_513, 31_514, 31_515, 31_516]
const PLAIN: [string, string] = ['multi-plain', 'multi-plain-secret-0123456789']
const LIMITED: [string, string] = ['multi-limited', 'ten-units-an-hour-0123456789']
const OTHER: [string, string] = ['multi-other', 'multi-other-secret-0123456789']
const PER_KEY_STREAMS = 5
/** How long a hanging chain's read holds an opening: wide enough to tell slots given back at the client's leaving. */
const RPC_TIMEOUT_MS = 3_000
/** STREAM_BUFFER_BYTES: one chain's event fits it, two chains' openings together do not (checked where it matters). */
const STREAM_BUFFER = 13_000
const ALL_STREAMS = 8
const DAPP = 'https://dapp.example'
const METRICS_TOKEN = 'multi-chain-metrics-token-0123456789'

let service: Service
let liveProxy: CountingProxy
let fakeProxy: CountingProxy
let fake: FakeRpc
const hanging: FakeRpc[] = []
const open: SseStream[] = []

/** A fixed chain of 100 blocks on 1 s slots (synthetic, as tests/integration/stream.test.ts's). */
function syntheticChain() {
  const now = Math.floor(Date.now() / 1000)
  const blocks = Array.from({ length: 100 }, (_, i) => ({
    number: 20_000_000 + i,
    timestamp: now - 100 + i,
    baseFee: 10_000_000_000n + BigInt(i) * 1_000_000n,
    gasUsedRatio: [0.3, 0.5, 0.7, 1][i % 4] ?? 0.5,
    tips: [1_000_000_000n, 2_000_000_000n, 3_000_000_000n],
  }))
  return { blocks, nextBaseFee: 10_100_000_000n }
}

beforeAll(async () => {
  liveProxy = await startCountingProxy(ctx().nodeUrl)
  fake = await startFakeRpc({ chainId: FAKE, ...syntheticChain() })
  fakeProxy = await startCountingProxy(fake.url)
  for (const chainId of HANGING) hanging.push(await startFakeRpc({ chainId, ...syntheticChain(), mode: 'hang' }))
  service = await startService({
    env: {
      API_KEYS: [PLAIN, LIMITED, OTHER].map((c) => c.join(':')).join(','),
      RATE_LIMITS: `${PLAIN[0]}=0, ${LIMITED[0]}=10/3600, ${OTHER[0]}=0`,
      PUBLIC_ACCESS: 'true',
      PUBLIC_RATE_LIMIT: '6/3600',
      CORS_ORIGINS: DAPP,
      TRUST_PROXY: '',
      USE_PUBLIC_RPCS: 'false',
      REQUEST_LOG: 'false',
      METRICS_TOKEN,
      RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS),
      MAX_HEAD_AGE_SECONDS: '0',
      STREAM_MAX_PER_KEY: String(PER_KEY_STREAMS),
      STREAM_MAX_TOTAL: String(ALL_STREAMS),
      STREAM_BUFFER_BYTES: String(STREAM_BUFFER),
      [`RPC_URL_${LIVE}`]: liveProxy.url,
      [`RPC_URL_${FAKE}`]: fakeProxy.url,
      [`RPC_URL_${LEGACY}`]: ctx().legacyNodeUrl,
      [`RPC_URL_${DOWN}`]: `http://127.0.0.1:${await freePort()}`,
      ...Object.fromEntries(HANGING.map((id, i) => [`RPC_URL_${id}`, hanging[i]!.url])),
    },
  })
}, 180_000)

afterAll(async () => {
  for (const s of open) s.close()
  for (const stop of [service?.stop, liveProxy?.close, fakeProxy?.close, fake?.close, ...hanging.map((h) => h.close)])
    await stop?.().catch(() => {})
})

/** GET a path of the service with `cred` (null: keyless), checked against GET /openapi.json; `keys` the body's top-level keys as sent. */
async function get(path: string, cred: [string, string] | null = PLAIN, headers: Record<string, string> = {}) {
  const res = await fetch(`${service.url}${path}`, { headers: { ...(cred ? { authorization: basic(cred) } : {}), ...headers } })
  const text = await res.text()
  const body = JSON.parse(text) as Record<string, unknown>
  assertContract({ method: 'GET', path, status: res.status, headers: res.headers, body })
  // JSON.parse orders integer keys: the order sent is read from the text (no value holds a "<digits>": key)
  const keys = [...text.matchAll(/"(\d+)":[{]/g)].map((m) => Number(m[1]))
  return { status: res.status, headers: res.headers, body, keys }
}

/** Each chain's entry of X-Chain-Freshness: `{ chainId, block, age, stale }` or `{ chainId, status }`. */
function freshness(header: string | null): Record<string, string | number>[] {
  return (header ?? '').split(', ').map((item) => {
    const [id, ...params] = item.split(';')
    return Object.fromEntries([
      ['chainId', Number(id)],
      ...params.map((p) => p.split('=')).map(([k, v]) => [k, /^\d+$/.test(v!) ? Number(v) : v]),
    ])
  })
}

async function stream(query: string, cred: [string, string] = PLAIN): Promise<SseStream> {
  const s = await openSse(`${service.url}/v1/stream${query}`, { authorization: basic(cred) })
  const body = s.status === 200 ? '' : (JSON.parse(await s.body) as unknown)
  assertContract({ method: 'GET', path: '/v1/stream', status: s.status, headers: s.headers, body })
  open.push(s)
  return s
}
const data = (e: SseEvent) => JSON.parse(e.data) as { chainId: number; blockNumber: number; stale: boolean } & Record<string, unknown>
const feesOf = (chainId: number) => (e: SseEvent) => e.event === 'fees' && data(e).chainId === chainId
const reads = (p: CountingProxy) => p.counts().eth_feeHistory ?? 0

/** The streams open on the instance, every chain's (gas_api_streams_open): 0 once every closed stream is let go. */
async function streamsOpen(): Promise<number> {
  const text = await (await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text()
  return [...text.matchAll(/^gas_api_streams_open\{[^}]*\} (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0)
}

describe('GET /v1/suggestedGasFees', () => {
  test('default: each chain asked, in the order asked, is the body its own route serves at the same block; failures in place', async () => {
    const order = [FAKE, LIVE, UNLISTED, LEGACY, DOWN]
    // per-chain answers fetched right after the call are compared when they are for the same block
    const [multi, singles] = await eventually(async () => {
      const m = await get(`/v1/suggestedGasFees?chainIds=${order.join(',')}`)
      const s = await Promise.all(order.map((id) => get(`/networks/${id}/suggestedGasFees`)))
      const blocks = freshness(m.headers.get('x-chain-freshness'))
      const same = s.every((one, i) => one.status !== 200 || Number(one.headers.get('x-block-number')) === blocks[i]!.block)
      return same ? ([m, s] as const) : undefined
    }, 'a multi-chain call and the per-chain calls at the same blocks')
    expect(multi.status).toBe(200)
    expect(multi.keys).toEqual(order)
    MultiChainSuggestedGasFeesSchema.parse(multi.body)
    for (const [i, id] of order.entries()) expect(multi.body[String(id)], String(id)).toEqual(singles[i]!.body)
    // the failures are the per-chain routes' error bodies: unsupported and no EIP-1559 are 400s, a dead node a 503
    expect(singles.map((s) => s.status)).toEqual([200, 200, 400, 400, 503])
    const each = freshness(multi.headers.get('x-chain-freshness'))
    expect(each.map((e) => e.chainId)).toEqual(order)
    expect(each.slice(2).map((e) => e.status)).toEqual([400, 400, 503])
    for (const [i, e] of each.slice(0, 2).entries()) {
      expect(e.stale).toBe(singles[i]!.headers.get('x-data-stale') === 'true' ? '?1' : '?0')
      expect(e.interval).toBe(Number(singles[i]!.headers.get('x-block-interval-ms')))
    }
    // a chain failed: the call as a whole is not cached
    expect(multi.headers.get('cache-control')).toBe('no-store')
  })

  test('behavior: freshness headers of the call as a whole are the shortest of its chains', async () => {
    const res = await eventually(async () => {
      const r = await get(`/v1/suggestedGasFees?chainIds=${LIVE},${FAKE}`)
      return r.headers.get('x-data-stale') === 'false' ? r : undefined
    }, 'a current answer for both chains')
    const each = freshness(res.headers.get('x-chain-freshness'))
    expect(Number(res.headers.get('age'))).toBe(Math.max(...each.map((e) => e.age as number)))
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(res.headers.get('cache-control') ?? '')?.[1])
    // each chain's window is fresh for at most a block interval past its age
    expect(maxAge).toBeLessThanOrEqual(Math.min(...each.map((e) => Math.ceil((e.interval as number) / 1000))))
  })

  test('behavior: cold chains are read in parallel: chains whose nodes never answer cost the call one chain deadline, not one each', async () => {
    const [first, ...others] = HANGING as [number, ...number[]]
    let started = performance.now()
    const single = await get(`/networks/${first}/suggestedGasFees`)
    const oneChain = performance.now() - started
    expect(single.status).toBe(503)
    started = performance.now()
    const multi = await get(`/v1/suggestedGasFees?chainIds=${[...others, LIVE].join(',')}`)
    const threeChains = performance.now() - started
    expect(multi.status).toBe(200)
    for (const id of others) {
      const body = multi.body[String(id)] as { statusCode: number; message: string }
      expect(body.statusCode).toBe(503)
      // the same error as the chain's own route, the time it waited aside
      const waitAside = (m: unknown) => String(m).replace(/\d+ ms/, 'N ms')
      expect(waitAside(body.message)).toBe(waitAside(single.body.message))
    }
    expect(multi.body[String(LIVE)]).toHaveProperty('medium')
    // read one after another, three cold chains would take three deadlines
    expect(threeChains).toBeLessThan(2 * oneChain)
  })

  test('args: without chainIds, every supported chain in ascending id order', async () => {
    const res = await get('/v1/suggestedGasFees')
    expect(res.status).toBe(200)
    expect(res.keys).toEqual([LIVE, LEGACY, FAKE, DOWN, ...HANGING].sort((a, b) => a - b))
  })

  test.each([
    ['empty', '?chainIds='],
    ['an empty entry', '?chainIds=1,,10'],
    ['not a canonical decimal', '?chainIds=0x1'],
    ['a leading zero', '?chainIds=01'],
    ['a duplicate', `?chainIds=${LIVE},${LIVE}`],
    ['more than 100 ids', `?chainIds=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`],
    ['the parameter repeated', `?chainIds=${LIVE}&chainIds=${FAKE}`],
    ['an unknown parameter', `?chainIds=${LIVE}&urgency=high`],
  ])('error: %s is a 400 naming chainIds, on both routes', async (_, query) => {
    const res = await get(`/v1/suggestedGasFees${query}`)
    expect(res.status).toBe(400)
    expect(ErrorBodySchema.parse(res.body).message).toContain('chainIds')
    const s = await stream(query)
    expect(s.status).toBe(400)
    expect(ErrorBodySchema.parse(JSON.parse(await s.body)).message).toContain('chainIds')
  })

  test('behavior: the quota counts once per chain named, with RateLimit headers; a list past what is left is a 429', async () => {
    const three = `?chainIds=${LIVE},${FAKE},${UNLISTED}`
    const first = await get(`/v1/suggestedGasFees${three}`, LIMITED)
    expect(first.status).toBe(200)
    expect(first.headers.get('ratelimit-limit')).toBe('10')
    expect(first.headers.get('ratelimit-remaining')).toBe('7')
    expect((await get(`/v1/suggestedGasFees${three}`, LIMITED)).headers.get('ratelimit-remaining')).toBe('4')
    const five = await get(`/v1/suggestedGasFees?chainIds=${LIVE},${FAKE},${UNLISTED},${LEGACY},${DOWN}`, LIMITED)
    expect(five.status).toBe(429)
    expect(Number(five.headers.get('retry-after'))).toBeGreaterThan(0)
    // what is left is said, in the header and the message
    expect(five.headers.get('ratelimit-remaining')).toBe('4')
    expect((five.body as { message: string }).message).toMatch(/counts 5 requests, one per chain it names, and 4 are left/)
    // the refused call took nothing: four still fit, then nothing does
    const four = await get(`/v1/suggestedGasFees?chainIds=${LIVE},${FAKE},${UNLISTED},${LEGACY}`, LIMITED)
    expect(four.status).toBe(200)
    expect(four.headers.get('ratelimit-remaining')).toBe('0')
    expect((await get(`/networks/${LIVE}/suggestedGasFees`, LIMITED)).status).toBe(429)
  })

  test('behavior: the keyless tier and CORS as on the per-chain routes; the keyless quota counts per chain too', async () => {
    const url = `${service.url}/v1/suggestedGasFees?chainIds=${LIVE},${FAKE}`
    const a = await fromAddress('127.0.0.41', url, { origin: DAPP })
    expect(a.status).toBe(200)
    expect(a.headers['access-control-allow-origin']).toBe(DAPP)
    expect(a.headers['access-control-expose-headers']).toContain('X-Chain-Freshness')
    expect(a.headers['ratelimit-remaining']).toBe('4')
    expect(Object.keys(JSON.parse(a.text) as object)).toEqual([String(LIVE), String(FAKE)])
    const b = await fromAddress('127.0.0.41', `${service.url}/v1/suggestedGasFees?chainIds=${LIVE},${FAKE},${LEGACY},${DOWN},${UNLISTED}`)
    expect(b.status).toBe(429)
    // the same through Infura's /v3/<key>/ form is not keyless: a wrong key there is a 401
    expect((await fromAddress('127.0.0.42', `${service.url}/v3/nokey/v1/suggestedGasFees`)).status).toBe(401)
  })

  test('behavior: no upstream read of its own: a hundred calls over two chains read each at most once per block (or window period)', async () => {
    const path = `/v1/suggestedGasFees?chainIds=${LIVE},${FAKE}`
    const current = () =>
      eventually(async () => {
        const r = await get(path)
        return r.headers.get('x-data-stale') === 'false' ? freshness(r.headers.get('x-chain-freshness')) : undefined
      }, 'a current answer for both chains')
    const start = await current()
    const before = { live: reads(liveProxy), fake: reads(fakeProxy), at: Date.now() }
    for (let i = 0; i < 100; i++) await get(path)
    const end = await current()
    const elapsed = Date.now() - before.at
    // as the per-chain routes: a read per new block, or per window period where the node's head stands still (the
    // fake node's), whatever the number of requests; +2 for a read under way at either end or an early probe
    const allowed = (i: number) =>
      Math.max((end[i]!.block as number) - (start[i]!.block as number), Math.ceil(elapsed / (end[i]!.interval as number))) + 2
    expect(reads(liveProxy) - before.live).toBeLessThanOrEqual(allowed(0))
    expect(reads(fakeProxy) - before.fake).toBeLessThanOrEqual(allowed(1))
  })
})

describe('GET /v1/stream', () => {
  test(
    'default: each chain opens with its current answer, its per-chain event plus chainId; the per-block pushes follow with no extra reads',
    { timeout: 90_000 },
    async () => {
      const single = await openSse(`${service.url}/networks/${LIVE}/stream`, { authorization: basic(OTHER) })
      open.push(single)
      await single.next((e) => e.event === 'fees', 15_000)
      const s = await stream(`?chainIds=${LIVE},${FAKE},${UNLISTED},${LEGACY}`, OTHER)
      expect(s.status).toBe(200)
      expect(s.headers['content-type']).toMatch(/^text\/event-stream/)
      const live = await s.next(feesOf(LIVE), 15_000)
      await s.next(feesOf(FAKE), 15_000)
      // the chains that cannot stream say so once, with the per-chain routes' error bodies
      for (const id of [UNLISTED, LEGACY]) {
        const e = await s.next((ev) => ev.event === 'error' && data(ev).chainId === id, 5_000)
        const { chainId: _, ...body } = ChainErrorEventSchema.parse(data(e))
        expect(body).toEqual((await get(`/networks/${id}/suggestedGasFees`)).body)
      }
      // the same bytes as the per-chain stream's event for that block, chainId first and no id
      const matching = await single.next((e) => e.event === 'fees' && Number(e.id) === data(live).blockNumber, 15_000, 0)
      expect(live.id).toBeUndefined()
      expect(live.data).toBe(matching.data.replace(/^\{/, `{"chainId":${LIVE},`))
      // the pushes follow, block by block, and cost no read beyond the per-chain stream's
      const before = reads(liveProxy)
      const from = data(live).blockNumber
      await s.next((e) => feesOf(LIVE)(e) && data(e).blockNumber >= from + 5, 30_000)
      const to = Math.max(...s.events.filter(feesOf(LIVE)).map((e) => data(e).blockNumber))
      expect(reads(liveProxy) - before).toBeLessThanOrEqual(to - from + 2)
      const blocks = s.events.filter(feesOf(LIVE)).map((e) => data(e).blockNumber)
      expect(blocks.filter((b) => b > from && b <= from + 5)).toEqual([1, 2, 3, 4, 5].map((i) => from + i))
      for (const e of s.events) {
        if (e.event === 'fees') ChainFeesEventSchema.parse(data(e))
        if (e.event === 'error') ChainErrorEventSchema.parse(data(e))
      }
      s.close()
      single.close()
    },
  )

  test("error: when no chain named can stream, the first one's error answers, as its own stream would", async () => {
    const s = await stream(`?chainIds=${UNLISTED},${LEGACY}`)
    expect(s.status).toBe(400)
    expect(JSON.parse(await s.body)).toEqual((await get(`/networks/${UNLISTED}/stream`)).body)
    // HEAD answers the same check without a read: a list of unsupported chains is its first one's 400
    const head = (q: string) => fetch(`${service.url}/v1/stream${q}`, { method: 'HEAD', headers: { authorization: basic(PLAIN) } })
    expect((await head(`?chainIds=${UNLISTED},${UNLISTED + 1}`)).status).toBe(400)
    expect((await head(`?chainIds=${LIVE},${UNLISTED}`)).status).toBe(200)
  })

  test(
    'behavior: one slot per chain named, under the per-key and total ceilings; closing frees them all',
    { timeout: 60_000 },
    async () => {
      // the streams of the tests before are let go (the server hears of a closed connection a moment later)
      await eventually(async () => ((await streamsOpen()) === 0 ? true : undefined), 'no stream open')
      // a chain that cannot stream (UNLISTED) counts too: the list names it
      const four = await stream(`?chainIds=${LIVE},${FAKE},${DOWN},${UNLISTED}`)
      expect(four.status).toBe(200)
      // 4 of the key's 5: two more chains do not fit, one does
      const two = await stream(`?chainIds=${LIVE},${FAKE}`)
      expect(two.status).toBe(429)
      expect(Number(two.headers['retry-after'])).toBeGreaterThan(0)
      expect((JSON.parse(await two.body) as { message: string }).message).toMatch(
        /names 2 chains .* more than this API key has free of its 5/,
      )
      const one = await stream(`?chainIds=${FAKE}`)
      expect(one.status).toBe(200)
      // a HEAD is refused as a GET would be, and takes no slot
      const head = (q: string, cred = PLAIN) =>
        fetch(`${service.url}/v1/stream${q}`, { method: 'HEAD', headers: { authorization: basic(cred) } }).then((r) => r.status)
      expect(await head(`?chainIds=${LIVE}`)).toBe(429)
      // a list none of whose chains is served is its first one's 400 before any slot is looked at (its own stream's),
      // even past the key's ceiling
      const unserved = `?chainIds=${Array.from({ length: PER_KEY_STREAMS + 1 }, (_, i) => UNLISTED + i).join(',')}`
      const refused = await stream(unserved)
      expect([refused.status, JSON.parse(await refused.body)]).toEqual([400, (await get(`/networks/${UNLISTED}/stream`)).body])
      expect(await head(unserved)).toBe(400)
      expect(await head(`?chainIds=${LIVE},${FAKE},${DOWN},${LEGACY}`, OTHER)).toBe(503)
      expect(await head(`?chainIds=${LIVE},${FAKE},${DOWN}`, OTHER)).toBe(200)
      // the instance holds 5 of its 8: another key's 4 chains do not fit, 3 do
      const otherFour = await stream(`?chainIds=${LIVE},${FAKE},${DOWN},${LEGACY}`, OTHER)
      expect(otherFour.status).toBe(503)
      const fits = await stream(`?chainIds=${LIVE},${FAKE},${DOWN}`, OTHER)
      expect(fits.status).toBe(200)
      fits.close()
      four.close()
      await eventually(async () => {
        const again = await stream(`?chainIds=${LIVE},${FAKE},${DOWN},${UNLISTED}`)
        again.close()
        return again.status === 200 ? true : undefined
      }, 'the slots of a closed multi-chain stream freed')
      one.close()
    },
  )

  test("behavior: a stream of two chains opens with both chains' events, more than one buffer (a buffer per chain named)", async () => {
    const s = await stream(`?chainIds=${LIVE},${FAKE}`)
    expect(s.status).toBe(200)
    const sizes = [
      Buffer.byteLength((await s.next(feesOf(LIVE), 15_000)).data),
      Buffer.byteLength((await s.next(feesOf(FAKE), 15_000)).data),
    ]
    // the case that mattered: each chain's event fits a buffer, the two together do not
    expect(Math.max(...sizes)).toBeLessThanOrEqual(STREAM_BUFFER)
    expect(sizes[0]! + sizes[1]!).toBeGreaterThan(STREAM_BUFFER)
    s.close()
  })

  test(
    "behavior: a client that leaves while its chains' first states are read gives their slots back then, not when the read ends",
    { timeout: 120_000 },
    async () => {
      await eventually(async () => ((await streamsOpen()) === 0 ? true : undefined), 'no stream open')
      const allSlots = `?chainIds=${[LIVE, FAKE, DOWN, LEGACY, UNLISTED].join(',')}`
      const head = () =>
        fetch(`${service.url}/v1/stream${allSlots}`, { method: 'HEAD', headers: { authorization: basic(PLAIN) } }).then((r) => r.status)
      // a try tells only when the stream was still opening at its abort (no status line yet); then the slots are back
      // long before the hanging chain's read could end (RPC_TIMEOUT_MS after the open), or they are not
      const status = await eventually(
        async () => {
          // every slot free first: the server hears of an earlier try's closed connection a moment later
          await eventually(async () => ((await head()) === 200 ? true : undefined), 'the slots free')
          const started = Date.now()
          const abort = new AbortController()
          const opening = fetch(`${service.url}/v1/stream?chainIds=${LIVE},${HANGING[3]}`, {
            headers: { authorization: basic(PLAIN) },
            signal: abort.signal,
          }).then(
            (r) => r.status,
            () => 'aborted',
          )
          await new Promise((r) => setTimeout(r, 100))
          abort.abort()
          if ((await opening) !== 'aborted') return undefined
          const decided = started + RPC_TIMEOUT_MS - 1_000
          for (;;) {
            const answer = await head()
            if (answer === 200) return Date.now() < decided ? answer : undefined
            if (Date.now() >= decided) return answer
            await new Promise((r) => setTimeout(r, 50))
          }
        },
        'a try that tells',
        60_000,
        500,
      )
      expect(status).toBe(200)
    },
  )
})
