import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { multiChainFreshnessHeaders } from '@/lib/http/freshness-headers'
import { errorEvent, feesEvent, withChainId } from '@/lib/http/sse-events'
import { heartbeatOnce } from '@/lib/http/multi-stream'

const NOW = 1_800_000_000_000
const meta = (chainId: number, o: { block: number; fetchedAgoMs: number; freshForMs: number; stale?: boolean }) => ({
  chainId,
  meta: {
    chainId,
    blockNumber: o.block,
    blockTimestamp: 1_700_000_000,
    blockIntervalMs: chainId === 1 ? 12_000 : 2_000,
    fetchedAt: NOW - o.fetchedAgoMs,
    freshUntil: NOW + o.freshForMs,
    stale: o.stale ?? false,
  },
})

describe('multiChainFreshnessHeaders', () => {
  test('default: the shortest max-age, the oldest age, and each chain in order', () => {
    const h = multiChainFreshnessHeaders(
      [meta(8453, { block: 7, fetchedAgoMs: 500, freshForMs: 1_500 }), meta(1, { block: 21, fetchedAgoMs: 4_000, freshForMs: 8_000 })],
      NOW,
    )
    expect(h).toEqual({
      age: '4',
      'x-data-stale': 'false',
      'cache-control': 'private, max-age=1',
      'x-chain-freshness': '8453;block=7;age=0;interval=2000;stale=?0, 1;block=21;age=4;interval=12000;stale=?0',
    })
  })

  test('behavior: a stale chain makes the call stale and uncacheable, with the 110 warning', () => {
    const h = multiChainFreshnessHeaders(
      [
        meta(1, { block: 21, fetchedAgoMs: 0, freshForMs: 8_000 }),
        meta(10, { block: 5, fetchedAgoMs: 30_000, freshForMs: -20_000, stale: true }),
      ],
      NOW,
    )
    expect(h).toMatchObject({ 'x-data-stale': 'true', 'cache-control': 'no-store', warning: '110 - "Response is Stale"' })
    expect(h['x-chain-freshness']).toContain('10;block=5;age=30;interval=2000;stale=?1')
  })

  test('behavior: a chain that answered an error is listed with its status, and the call is not cached', () => {
    const h = multiChainFreshnessHeaders([meta(1, { block: 21, fetchedAgoMs: 0, freshForMs: 8_000 }), { chainId: 56, status: 400 }], NOW)
    expect(h['cache-control']).toBe('no-store')
    expect(h['x-chain-freshness']).toBe('1;block=21;age=0;interval=12000;stale=?0, 56;status=400')
  })

  test('behavior: an id past RFC 8941 Integers (15 digits) is a String; 15 digits are an Integer', () => {
    const h = multiChainFreshnessHeaders(
      [
        { chainId: 999_999_999_999_999, status: 400 },
        { chainId: 2 ** 53 - 1, status: 400 },
      ],
      NOW,
    )
    expect(h['x-chain-freshness']).toBe('999999999999999;status=400, "9007199254740991";status=400')
  })
})

describe('withChainId', () => {
  const bodies = { suggestedGasFees: '{"a":1}', busyThreshold: '{}', baseFeePercentile: '{}', baseFeeHistory: '[]', baseFeeForecast: '{}' }

  test('default: a fees event gets chainId first and loses its id line; the data is the same otherwise', () => {
    const event = feesEvent(7, false, bodies)
    const multi = withChainId(event, 8453)
    expect(multi).toBe(event.replace('id: 7\n', '').replace('data: {', 'data: {"chainId":8453,'))
    const data = JSON.parse(/^data: (.*)$/m.exec(multi)![1]!) as Record<string, unknown>
    expect(Object.keys(data).slice(0, 3)).toEqual(['chainId', 'blockNumber', 'stale'])
  })

  test('default: an error event gets chainId first', () => {
    const multi = withChainId(errorEvent('{"statusCode":503,"error":"Service Unavailable","message":"down"}'), 1)
    expect(multi).toBe('event: error\ndata: {"chainId":1,"statusCode":503,"error":"Service Unavailable","message":"down"}\n\n')
  })
})

describe('heartbeatOnce', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(Date.UTC(2026, 10, 28, 12, 0, 0))
  })
  afterEach(() => vi.useRealTimers())

  test("behavior: one connection gets one heartbeat a period, however many chains' hubs send theirs; events all pass", () => {
    const sent: string[] = []
    const controller = { enqueue: (b: Uint8Array) => sent.push(new TextDecoder().decode(b)), desiredSize: 10 }
    const shared = heartbeatOnce(controller as unknown as ReadableStreamDefaultController<Uint8Array>, 15_000)
    const beat = new TextEncoder().encode(': keep-alive\n\n')
    const event = new TextEncoder().encode('event: fees\ndata: {}\n\n')
    for (let hub = 0; hub < 3; hub++) shared.enqueue(beat)
    shared.enqueue(event)
    shared.enqueue(event)
    vi.advanceTimersByTime(15_000)
    for (let hub = 0; hub < 3; hub++) shared.enqueue(beat)
    expect(sent.filter((s) => s.startsWith(':'))).toHaveLength(2)
    expect(sent.filter((s) => s.startsWith('event:'))).toHaveLength(2)
    expect(shared.desiredSize).toBe(10)
  })
})
