// GET /networks/{chainId}/stream end to end: `next start` against a live anvil devnet behind a
// counting proxy, and a fake node that a test breaks and mends.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startCountingProxy, type CountingProxy } from '@/scripts/devnet/counting-proxy'
import { startDevnet, type Devnet } from '@/scripts/devnet/devnet'
import { startService, type Service } from '@/scripts/devnet/service'
import { rpc } from '@/scripts/devnet/json-rpc'
import { openSse, type SseEvent, type SseStream } from '@/scripts/stream/sse-client'
import { ErrorBodySchema } from '@/lib/core/contract/schemas'
import { assertContract, streamEventViolations } from '../support/contract'
import { startFakeRpc, type FakeRpc } from '../support/fake-rpc'
import { basic, eventually } from './helpers'

const LIVE = 31_401
const FLAKY = 31_402
const LOAD: [string, string] = ['stream-load', 'stream-load-secret-0123456789']
const OTHER: [string, string] = ['stream-other', 'stream-other-secret-0123456789']
const STREAMS_PER_KEY = 200
const MAX_STALE_SECONDS = 3

/** A fixed chain of 100 blocks on 1 s slots for the fake node (synthetic: this file runs without ../shared too). */
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

let devnet: Devnet
let proxy: CountingProxy
let flaky: FakeRpc
let service: Service
const open: SseStream[] = []

type FeesData = {
  blockNumber: number
  stale: boolean
  suggestedGasFees: unknown
  busyThreshold: unknown
  baseFeePercentile: unknown
  baseFeeHistory: unknown
  baseFeeForecast: unknown
  blobFees?: unknown
}

async function stream(chainId: number, cred = OTHER, headers: Record<string, string> = {}): Promise<SseStream> {
  const path = `/networks/${chainId}/stream`
  const s = await openSse(`${service.url}${path}`, { authorization: basic(cred), ...headers })
  // the answer against GET /openapi.json: a refusal's JSON body, a stream's status and headers (its
  // events are checked by the last test)
  const body = s.status === 200 ? '' : (JSON.parse(await s.body) as unknown)
  assertContract({ method: 'GET', path, status: s.status, headers: s.headers, body })
  open.push(s)
  return s
}
const fees = (e: SseEvent) => JSON.parse(e.data) as FeesData
const isFees = (e: SseEvent) => e.event === 'fees'
const feeHistoryReads = () => proxy.counts().eth_feeHistory ?? 0
const setMode = (mode: string) => fetch(`${flaky.url}/__mode/${mode}`, { method: 'POST' })

async function rest(chainId: number, endpoint: string) {
  const path = `/networks/${chainId}/${endpoint}`
  const res = await fetch(`${service.url}${path}`, { headers: { authorization: basic(OTHER) } })
  const body = (await res.json()) as unknown
  assertContract({ method: 'GET', path, status: res.status, headers: res.headers, body })
  return { block: Number(res.headers.get('x-block-number')), stale: res.headers.get('x-data-stale') === 'true', body }
}

beforeAll(async () => {
  devnet = await startDevnet({ chainId: LIVE, blockTimeSec: 2, seedBlocks: 520 })
  proxy = await startCountingProxy(devnet.url)
  flaky = await startFakeRpc({ chainId: FLAKY, ...syntheticChain() })
  service = await startService({
    env: {
      API_KEYS: `${LOAD.join(':')}, ${OTHER.join(':')}`,
      RATE_LIMITS: `${LOAD[0]}=0, ${OTHER[0]}=0`,
      USE_PUBLIC_RPCS: 'false',
      REQUEST_LOG: 'false',
      RPC_TIMEOUT_MS: '1000',
      MAX_STALE_SECONDS: String(MAX_STALE_SECONDS),
      MAX_HEAD_AGE_SECONDS: '0',
      STREAM_MAX_PER_KEY: String(STREAMS_PER_KEY),
      [`RPC_URL_${LIVE}`]: proxy.url,
      [`RPC_URL_${FLAKY}`]: flaky.url,
    },
  })
}, 180_000)

afterAll(async () => {
  for (const s of open) s.close()
  for (const stop of [service?.stop, proxy?.close, flaky?.close, devnet?.stop]) await stop?.().catch(() => {})
})

describe('GET /networks/{chainId}/stream', () => {
  test(
    'default: an event stream whose first `fees` event comes at once, then one per new block, each equal to the REST answers for its block',
    { timeout: 120_000 },
    async () => {
      const s = await stream(LIVE)
      expect(s.status).toBe(200)
      expect(s.headers['content-type']).toMatch(/^text\/event-stream/)
      const first = await s.next(isFees, 10_000)
      expect(Number(first.id)).toBe(fees(first).blockNumber)
      expect(Object.keys(fees(first))).toEqual([
        'blockNumber',
        'stale',
        'suggestedGasFees',
        'busyThreshold',
        'baseFeePercentile',
        'baseFeeHistory',
        'baseFeeForecast',
        // the devnet's anvil reports blobs: GET blobFees' body, last
        'blobFees',
      ])
      // events for later blocks; the REST answers fetched right after an event are for its block when the
      // service has not moved on in between: those are compared body for body
      let compared = 0
      let index = s.events.indexOf(first)
      await eventually(
        async () => {
          const e = await s.next(isFees, 10_000, index)
          index = s.events.indexOf(e) + 1
          const data = fees(e)
          // the forecast is made at the event's block
          expect((data.baseFeeForecast as { blockNumber: number }).blockNumber).toBe(data.blockNumber)
          const answers = await Promise.all(
            (['suggestedGasFees', 'busyThreshold', 'baseFeePercentile', 'baseFeeHistory', 'baseFeeForecast', 'blobFees'] as const).map(
              async (k) => [k, await rest(LIVE, k)] as const,
            ),
          )
          if (answers.every(([, a]) => a.block === data.blockNumber && a.stale === data.stale)) {
            for (const [k, a] of answers) expect(data[k], k).toEqual(a.body)
            compared++
          }
          return compared >= 3 ? true : undefined
        },
        'three events matched against the REST answers for their block',
        60_000,
        0,
      )
      // one event per new block (the feed reads each new block once, timed on the chain's blocks:
      // lib/feed/read-timing/next-read.ts nextRead); the block numbers only go up, never the same block twice
      // with the same staleness. The timing's first probes, a few blocks after the feed's cold start,
      // may come early and let one block go by, so blocks are checked from the 8th after the first event
      const fromBlock = fees(first).blockNumber + 8
      await s.next((e) => isFees(e) && fees(e).blockNumber >= fromBlock + 10, 60_000)
      const seen = s.events.filter(isFees).map((e) => `${fees(e).blockNumber}:${fees(e).stale}`)
      expect(new Set(seen).size).toBe(seen.length)
      const blocks = s.events.filter(isFees).map((e) => fees(e).blockNumber)
      for (let i = 1; i < blocks.length; i++) expect(blocks[i]!).toBeGreaterThanOrEqual(blocks[i - 1]!)
      // every block from fromBlock on has its event, but one: a read that a 2-core CI machine delays
      // past the next block's arrival lets one block go by (seen once in a fresh-clone CI run, block
      // 530, ten blocks after the cold start); the missing ones are printed
      const lastBlock = blocks.at(-1)!
      const withEvent = new Set(blocks)
      const missing = Array.from({ length: lastBlock - fromBlock + 1 }, (_, i) => fromBlock + i).filter((b) => !withEvent.has(b))
      if (missing.length > 0) console.log('blocks without an event:', missing.join(', '))
      expect(lastBlock - fromBlock).toBeGreaterThanOrEqual(10)
      expect(missing.length).toBeLessThanOrEqual(1)
      s.close()
    },
  )

  test("behavior: 200 concurrent streams cost no extra upstream reads: at most one eth_feeHistory per new block, and each stream gets every block's event", async () => {
    const streams = await Promise.all(Array.from({ length: STREAMS_PER_KEY }, () => stream(LIVE, LOAD)))
    expect(streams.every((s) => s.status === 200)).toBe(true)
    await Promise.all(streams.map((s) => s.next(isFees, 20_000)))
    const readsBefore = feeHistoryReads()
    const startBlock = Math.max(...streams.map((s) => fees(s.events.filter(isFees).at(-1)!).blockNumber))
    // wait until every stream has an event at least 5 blocks later
    await Promise.all(streams.map((s) => s.next((e) => isFees(e) && fees(e).blockNumber >= startBlock + 5, 60_000)))
    const reads = feeHistoryReads() - readsBefore
    const endBlock = Math.max(...streams.map((s) => fees(s.events.filter(isFees).at(-1)!).blockNumber))
    // one read per new block, whatever the number of streams (+1: a read may be under way at either
    // end of the period; +1: a probe of the block's arrival that came too early and was read again,
    // about one per 64 blocks: lib/feed/read-timing/next-read.ts nextRead)
    expect(reads).toBeLessThanOrEqual(endBlock - startBlock + 2)
    expect(reads).toBeGreaterThan(0)
    // every stream got one event for each block of the period
    const ids = (s: SseStream) =>
      s.events.filter((e) => isFees(e) && Number(e.id) > startBlock && Number(e.id) <= startBlock + 5).map((e) => Number(e.id))
    for (const s of streams) expect(ids(s)).toEqual([1, 2, 3, 4, 5].map((i) => startBlock + i))

    // the per-key limit: the 201st stream of this key is refused, another key's is not
    const refused = await stream(LIVE, LOAD)
    expect(refused.status).toBe(429)
    const body = ErrorBodySchema.parse(JSON.parse(await refused.body))
    expect(body.statusCode).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    const other = await stream(LIVE, OTHER)
    expect(other.status).toBe(200)
    other.close()
    // a closed stream frees its slot
    streams[0]!.close()
    await eventually(async () => {
      const again = await stream(LIVE, LOAD)
      if (again.status === 200) return true
      again.close()
      return undefined
    }, 'a slot freed by a closed stream')
    for (const s of streams) s.close()
  })

  test('behavior: two blocks mined in one call (the next read finds both): the stream pushes each, oldest first, the older one from the window cut at it', async () => {
    const s = await stream(LIVE, OTHER)
    const first = Number((await s.next(isFees, 10_000)).id)
    const head = Number(await rpc<string>(devnet.url, 'eth_blockNumber'))
    await rpc(devnet.url, 'anvil_mine', ['0x2'])
    await s.next((e) => isFees(e) && Number(e.id) >= head + 2, 20_000)
    const ids = s.events.filter(isFees).map((e) => Number(e.id))
    expect(ids.filter((id) => id > first)).toEqual(Array.from({ length: ids.at(-1)! - first }, (_, i) => first + 1 + i))
    // the older block's event carries its own block's fees: its base fee history ends at that block
    const older = fees(s.events.find((e) => isFees(e) && Number(e.id) === head + 1)!)
    const history = older.baseFeeHistory as unknown as unknown[]
    const newer = fees(s.events.find((e) => isFees(e) && Number(e.id) === head + 2)!)
    expect((newer.baseFeeHistory as unknown as unknown[]).slice(0, -1).slice(-5)).toEqual(history.slice(-5))
    s.close()
  })

  test('behavior: Last-Event-ID gets the current window, not a replay of the blocks missed', async () => {
    const s = await stream(LIVE)
    const first = await s.next(isFees, 10_000)
    s.close()
    // miss a few blocks
    const missed = Number(first.id)
    await eventually(async () => ((await rest(LIVE, 'busyThreshold')).block >= missed + 3 ? true : undefined), 'three blocks missed')
    const again = await stream(LIVE, OTHER, { 'last-event-id': String(missed) })
    const resumed = await again.next(isFees, 10_000)
    expect(Number(resumed.id)).toBeGreaterThanOrEqual(missed + 3)
    // nothing between the missed block and the current one was replayed
    expect(again.events.filter((e) => isFees(e) && Number(e.id) < Number(resumed.id))).toEqual([])
    again.close()
  })

  test('behavior: a node failure shows as stale, then as `event: error`, then recovers, on one connection', async () => {
    await setMode('ok')
    const s = await stream(FLAKY)
    const fresh = await s.next((e) => isFees(e) && !fees(e).stale, 15_000)
    await setMode('http500')
    try {
      const stale = await s.next((e) => isFees(e) && fees(e).stale, 15_000)
      expect(fees(stale).blockNumber).toBe(fees(fresh).blockNumber)
      const error = await s.next((e) => e.event === 'error', 15_000 + MAX_STALE_SECONDS * 1000)
      const body = ErrorBodySchema.parse(JSON.parse(error.data))
      expect([502, 503]).toContain(body.statusCode)
    } finally {
      await setMode('ok')
    }
    const errorAt = s.events.findIndex((e) => e.event === 'error')
    const recovered = await s.next((e) => isFees(e) && !fees(e).stale, 15_000, errorAt + 1)
    expect(fees(recovered).blockNumber).toBeGreaterThan(0)
    // the same connection throughout
    let ended = false
    void s.ended.then(() => (ended = true))
    await Promise.resolve()
    expect(ended).toBe(false)
    s.close()
  })

  test('errors: bad input is a JSON error before any stream opens', async () => {
    for (const [path, status] of [
      ['/networks/abc/stream', 400],
      ['/networks/999999/stream', 400],
    ] as const) {
      const s = await openSse(`${service.url}${path}`, { authorization: basic(OTHER) })
      expect(s.status).toBe(status)
      const body = JSON.parse(await s.body) as unknown
      expect(ErrorBodySchema.parse(body).statusCode).toBe(status)
      assertContract({ method: 'GET', path, status: s.status, headers: s.headers, body })
    }
    const anonymous = await openSse(`${service.url}/networks/${LIVE}/stream`)
    expect(anonymous.status).toBe(401)
    assertContract({
      method: 'GET',
      path: `/networks/${LIVE}/stream`,
      status: 401,
      headers: anonymous.headers,
      body: JSON.parse(await anonymous.body),
    })
  })

  test('behavior: every event of every stream of this file is one GET /openapi.json describes, its data of the documented schema', () => {
    const events = open.flatMap((s) => s.events)
    expect(events.filter(isFees).length).toBeGreaterThan(0)
    expect(events.filter((e) => e.event === 'error').length).toBeGreaterThan(0)
    const seen = new Set<string>()
    const violations = events.flatMap((e) => {
      // the 200 streams carry the same bytes for a block: check each distinct event once
      const id = `${e.event}\n${e.data}`
      if (seen.has(id)) return []
      seen.add(id)
      return streamEventViolations(e.event, JSON.parse(e.data))
    })
    expect(violations).toEqual([])
  })
})
