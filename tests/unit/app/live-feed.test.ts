// The page's live feed (app/_components/live-feed.ts) with a fake EventSource and fake timers:
// the stream while it is up, polling while it is down, and back.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { ApiError } from '@/app/_components/api-client'
import type { ChainData } from '@/app/_components/chain-data'
import { STREAM_RETRY_MS, subscribeChainFeed, type EventSourceLike } from '@/app/_components/live-feed'

const level = { suggestedMaxPriorityFeePerGas: '1', suggestedMaxFeePerGas: '3', minWaitTimeEstimate: 1, maxWaitTimeEstimate: 2 }
const FEES = {
  low: level,
  medium: level,
  high: level,
  estimatedBaseFee: '1',
  networkCongestion: 0.5,
  latestPriorityFeeRange: ['1', '2'],
  historicalPriorityFeeRange: ['1', '2'],
  historicalBaseFeeRange: ['1', '2'],
  priorityFeeTrend: 'up',
  baseFeeTrend: 'up',
}
const forecast = (blockNumber: number) => ({
  blockNumber,
  estimatedBaseFee: '1',
  horizons: Array.from({ length: 10 }, (_, i) => ({ blocks: i + 1, p50: '1', p90: '1', p99: '1', bound: null })),
})
const eventData = (blockNumber: number, stale = false) =>
  JSON.stringify({
    blockNumber,
    stale,
    suggestedGasFees: FEES,
    busyThreshold: { busyThreshold: '2' },
    baseFeePercentile: { baseFeePercentile: '1' },
    baseFeeHistory: ['1'],
    baseFeeForecast: forecast(blockNumber),
  })

class FakeEventSource implements EventSourceLike {
  readyState = 0
  closed = false
  private listeners = new Map<string, ((e: Event) => void)[]>()
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (e: Event) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener])
  }
  close() {
    this.closed = true
    this.readyState = 2
  }
  private emit(type: string, e: Event) {
    for (const l of this.listeners.get(type) ?? []) l(e)
  }
  open() {
    this.readyState = 1
    this.emit('open', new Event('open'))
  }
  send(event: string, data: string) {
    this.emit(event, new MessageEvent(event, { data }))
  }
  /** The connection failed: the browser reconnects (CONNECTING) or has given up (CLOSED). */
  fail(readyState: 0 | 2) {
    this.readyState = readyState
    this.emit('error', new Event('error'))
  }
}

const polled = (blockNumber: number, blockIntervalMs = 1_000): ChainData => ({
  fees: FEES as ChainData['fees'],
  p50: '1',
  busy: '2',
  history: ['1'],
  forecast: forecast(blockNumber),
  freshness: { blockNumber, ageAtFetch: 0, receivedAt: 0, stale: false, blockIntervalMs },
  source: 'polling',
})

let streams: FakeEventSource[]
let load: ReturnType<typeof vi.fn<(chainId: number) => Promise<ChainData>>>
let next: ReturnType<typeof vi.fn<(error: unknown, data?: ChainData) => void>>
let block: number
let nowMs: number

function start() {
  return subscribeChainFeed(7, next, {
    openStream: (url) => {
      const s = new FakeEventSource(url)
      streams.push(s)
      return s
    },
    load,
    now: () => nowMs,
  })
}
const latest = () => streams.at(-1)!
const lastData = () => next.mock.calls.filter(([e]) => e === null).at(-1)?.[1]
const lastError = () => next.mock.calls.at(-1)?.[0]

beforeEach(() => {
  vi.useFakeTimers()
  streams = []
  block = 100
  nowMs = 42
  load = vi.fn(async () => polled(++block))
  next = vi.fn()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('subscribeChainFeed', () => {
  test('default: each fees event is shown, and nothing is polled while the stream is up', async () => {
    start()
    expect(latest().url).toBe('/networks/7/stream')
    latest().open()
    latest().send('fees', eventData(500))
    latest().send('fees', eventData(501, true))
    await vi.advanceTimersByTimeAsync(5 * 60_000)
    expect(lastData()).toMatchObject({ source: 'stream', freshness: { blockNumber: 501, stale: true, receivedAt: 42 } })
    expect(load).not.toHaveBeenCalled()
    expect(streams).toHaveLength(1)
  })

  test('behavior: the same block again, now marked stale, keeps the age it had: the age keeps counting', () => {
    start()
    latest().open()
    latest().send('fees', eventData(500))
    nowMs = 6_042
    latest().send('fees', eventData(500, true))
    expect(lastData()).toMatchObject({ freshness: { blockNumber: 500, stale: true, receivedAt: 42 } })
    nowMs = 8_042
    latest().send('fees', eventData(501))
    expect(lastData()).toMatchObject({ freshness: { blockNumber: 501, stale: false, receivedAt: 8_042 } })
  })

  test('behavior: an `event: error` is the upstream failing: an error with its status, no polling', async () => {
    start()
    latest().open()
    latest().send('fees', eventData(500))
    latest().send('error', '{"statusCode":503,"error":"Service Unavailable","message":"The node is down."}')
    expect(lastError()).toBeInstanceOf(ApiError)
    expect(lastError()).toMatchObject({ status: 503, message: 'The node is down.' })
    await vi.advanceTimersByTimeAsync(60_000)
    expect(load).not.toHaveBeenCalled()
    // and the next event clears it
    latest().send('fees', eventData(501))
    expect(next.mock.calls.at(-1)).toEqual([null, expect.objectContaining({ source: 'stream' })])
  })

  test('behavior: a malformed event is an error, never numbers', () => {
    start()
    latest().send('fees', '{"blockNumber":1}')
    expect(lastError()).toBeInstanceOf(ApiError)
    expect(lastData()).toBeUndefined()
  })

  test('behavior: a stream the server ends reconnects without polling; a second failure in a row polls', async () => {
    start()
    latest().open()
    latest().fail(0) // STREAM_MAX_SECONDS: the browser reconnects
    latest().open()
    latest().fail(0)
    await vi.advanceTimersByTimeAsync(10_000)
    expect(load).not.toHaveBeenCalled()
    latest().fail(0) // no open since the last failure: the stream is down (e.g. a network error)
    await vi.advanceTimersByTimeAsync(0)
    expect(load).toHaveBeenCalledTimes(1)
    expect(latest().closed).toBe(true)
  })

  test('behavior: a refused stream (CLOSED) polls about once per block, and the stream is tried again and takes over', async () => {
    start()
    latest().fail(2)
    await vi.advanceTimersByTimeAsync(0)
    expect(lastData()).toMatchObject({ source: 'polling', freshness: { blockNumber: 101 } })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(load.mock.calls.length).toBeGreaterThanOrEqual(10)
    expect(streams).toHaveLength(1)

    // the retry fails too: polling goes on, and so do the retries
    await vi.advanceTimersByTimeAsync(STREAM_RETRY_MS - 10_000)
    expect(streams).toHaveLength(2)
    latest().fail(2)
    await vi.advanceTimersByTimeAsync(STREAM_RETRY_MS)
    expect(streams).toHaveLength(3)

    // this one is up: polling stops at its first event
    latest().open()
    latest().send('fees', eventData(900))
    const reads = load.mock.calls.length
    await vi.advanceTimersByTimeAsync(5 * 60_000)
    expect(load).toHaveBeenCalledTimes(reads)
    expect(lastData()).toMatchObject({ source: 'stream', freshness: { blockNumber: 900 } })
    expect(streams).toHaveLength(3)
  })

  test('behavior: a failed poll is reported and retried after Retry-After', async () => {
    load.mockRejectedValueOnce(new ApiError(503, 'down', 5))
    start()
    latest().fail(2)
    await vi.advanceTimersByTimeAsync(0)
    expect(lastError()).toMatchObject({ status: 503 })
    await vi.advanceTimersByTimeAsync(4_900)
    expect(load).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(200)
    expect(load).toHaveBeenCalledTimes(2)
    expect(lastData()).toMatchObject({ source: 'polling' })
  })

  test('error: a 401 while polling is not retried by polling', async () => {
    load.mockRejectedValue(new ApiError(401, 'no'))
    start()
    latest().fail(2)
    await vi.advanceTimersByTimeAsync(STREAM_RETRY_MS - 1)
    expect(load).toHaveBeenCalledTimes(1)
    expect(lastError()).toMatchObject({ status: 401 })
  })

  test('behavior: unsubscribing while polling stops the polling and the stream retries', async () => {
    const stop = start()
    latest().fail(2)
    await vi.advanceTimersByTimeAsync(0)
    stop()
    const reads = load.mock.calls.length
    await vi.advanceTimersByTimeAsync(5 * 60_000)
    expect(load).toHaveBeenCalledTimes(reads)
    expect(streams).toHaveLength(1)
  })

  test('behavior: unsubscribing closes the stream', () => {
    const stop = start()
    latest().open()
    stop()
    expect(latest().closed).toBe(true)
  })
})
