import { describe, expect, test } from 'vitest'
import { ApiError, type fetchApi, type Freshness } from '@/app/_components/api-client'
import { loadChain, parseFeesEvent, SAME_BLOCK_TRIES } from '@/app/_components/chain-data'
import { feesEvent } from '@/lib/http/sse-events'

const level = (max: string, tip: string) => ({
  suggestedMaxPriorityFeePerGas: tip,
  suggestedMaxFeePerGas: max,
  minWaitTimeEstimate: 12_000,
  maxWaitTimeEstimate: 36_000,
})
const FEES = {
  low: level('20.5', '1'),
  medium: level('25', '1.5'),
  high: level('30.123456789', '2'),
  estimatedBaseFee: '19.5',
  networkCongestion: 0.42,
  latestPriorityFeeRange: ['0.1', '3'],
  historicalPriorityFeeRange: ['0.01', '40'],
  historicalBaseFeeRange: ['10', '30'],
  priorityFeeTrend: 'up',
  baseFeeTrend: 'down',
}
const FORECAST = {
  blockNumber: 1234,
  estimatedBaseFee: '19.5',
  horizons: Array.from({ length: 10 }, (_, i) => ({
    blocks: i + 1,
    p50: i === 0 ? '19.5' : '20',
    p90: i === 0 ? '19.5' : '21',
    p99: i === 0 ? '19.5' : '22',
    bound: i === 0 ? '19.5' : '30',
  })),
}
const BODIES = {
  suggestedGasFees: JSON.stringify(FEES),
  busyThreshold: '{"busyThreshold":"28"}',
  baseFeePercentile: '{"baseFeePercentile":"18"}',
  baseFeeHistory: '["18","19","19.5"]',
  baseFeeForecast: JSON.stringify(FORECAST),
}

/** The data line of an event as the server writes it (lib/http/sse-events.ts feesEvent). */
const dataOf = (event: string) =>
  event
    .split('\n')
    .find((l) => l.startsWith('data: '))!
    .slice('data: '.length)

const BLOB_FEES = {
  blockNumber: 1234,
  estimatedBlobBaseFee: '0.000000001',
  low: { suggestedMaxFeePerBlobGas: '0.000000003' },
  medium: { suggestedMaxFeePerBlobGas: '0.000000003' },
  high: { suggestedMaxFeePerBlobGas: '0.000000003' },
  blobGasUsedRatio: [0, 1],
  blobTarget: 6,
  blobMax: 9,
  forecast: {
    method: 'window',
    horizons: Array.from({ length: 10 }, (_, i) => ({
      blocks: i + 1,
      p50: '0.000000001',
      p90: '0.000000001',
      p99: '0.000000001',
      bound: '0.000000003',
    })),
  },
}

describe('parseFeesEvent', () => {
  test("behavior: on a chain with blobs the event's blobFees come along; elsewhere there are none", () => {
    const withBlobs = parseFeesEvent(dataOf(feesEvent(1234, false, BODIES, JSON.stringify(BLOB_FEES))), 12_000, 0)
    expect((withBlobs as Exclude<typeof withBlobs, ApiError>).blobFees).toEqual(BLOB_FEES)
    const without = parseFeesEvent(dataOf(feesEvent(1234, false, BODIES)), 12_000, 0)
    expect(without).not.toHaveProperty('blobFees')
    const broken = parseFeesEvent(dataOf(feesEvent(1234, false, BODIES, '{"blockNumber":1234}')), 12_000, 0)
    expect(broken).toBeInstanceOf(ApiError)
  })

  test('default: the server event becomes one block of page data, fresh, from the stream', () => {
    const data = parseFeesEvent(dataOf(feesEvent(1234, false, BODIES)), 12_000, 5_000)
    expect(data).toEqual({
      fees: FEES,
      p50: '18',
      busy: '28',
      history: ['18', '19', '19.5'],
      forecast: FORECAST,
      freshness: { blockNumber: 1234, ageAtFetch: 0, receivedAt: 5_000, stale: false, blockIntervalMs: 12_000 },
      source: 'stream',
    })
  })

  test('args: the stale flag is passed on', () => {
    const data = parseFeesEvent(dataOf(feesEvent(7, true, BODIES)), 2_000, 0)
    expect(data).not.toBeInstanceOf(ApiError)
    expect((data as Exclude<typeof data, ApiError>).freshness.stale).toBe(true)
  })

  test.each([
    ['not JSON', '{"blockNumber":'],
    ['a fee with an exponent', dataOf(feesEvent(1, false, { ...BODIES, busyThreshold: '{"busyThreshold":"1e9"}' }))],
    ['a missing body', JSON.stringify({ blockNumber: 1, stale: false, suggestedGasFees: FEES, busyThreshold: { busyThreshold: '1' } })],
    ['a negative block', dataOf(feesEvent(-1, false, BODIES))],
    [
      'a forecast without its horizons',
      dataOf(feesEvent(1, false, { ...BODIES, baseFeeForecast: '{"blockNumber":1,"estimatedBaseFee":"1"}' })),
    ],
    [
      'a forecast horizon of another shape',
      dataOf(feesEvent(1, false, { ...BODIES, baseFeeForecast: JSON.stringify({ ...FORECAST, horizons: FORECAST.horizons.slice(0, 9) }) })),
    ],
    ['an error body', '{"statusCode":503,"error":"Service Unavailable","message":"down"}'],
  ])('error: %s is an error, never numbers', (_name, data) => {
    const result = parseFeesEvent(data, 2_000, 0)
    expect(result).toBeInstanceOf(ApiError)
  })
})

describe('loadChain', () => {
  const freshness = (blockNumber: number): Freshness => ({
    blockNumber,
    ageAtFetch: 0,
    receivedAt: 0,
    stale: false,
    blockIntervalMs: 2_000,
  })
  const BODY: Record<string, unknown> = {
    suggestedGasFees: FEES,
    baseFeePercentile: { baseFeePercentile: '18' },
    busyThreshold: { busyThreshold: '28' },
    baseFeeHistory: ['18', '19', '19.5'],
    baseFeeForecast: FORECAST,
  }
  /** A fetcher whose answers speak of the blocks `blocks(endpoint, read)` says (read counts from 1 per endpoint). */
  function fakeFetcher(blocks: (endpoint: string, read: number) => number) {
    const reads = new Map<string, number>()
    const fetcher = async (path: string) => {
      const endpoint = path.split('/').at(-1)!
      // a chain without blobs (unless the test gives a blobFees body)
      if (!(endpoint in BODY)) throw new ApiError(400, `Chain 1 carries no blobs (${endpoint}).`)
      const read = (reads.get(endpoint) ?? 0) + 1
      reads.set(endpoint, read)
      return { data: BODY[endpoint], freshness: freshness(blocks(endpoint, read)) }
    }
    return { fetcher: fetcher as unknown as typeof fetchApi, reads }
  }

  test('default: five answers of one block, read once', async () => {
    const { fetcher, reads } = fakeFetcher(() => 100)
    const data = await loadChain(1, fetcher)
    expect(data).toMatchObject({ p50: '18', busy: '28', history: ['18', '19', '19.5'], forecast: FORECAST, source: 'polling' })
    expect(data.freshness.blockNumber).toBe(100)
    expect([...reads.keys()].sort()).toEqual([
      'baseFeeForecast',
      'baseFeeHistory',
      'baseFeePercentile',
      'busyThreshold',
      'suggestedGasFees',
    ])
    expect([...reads.values()]).toEqual([1, 1, 1, 1, 1])
  })

  test('behavior: answers that straddle a new block are read again until they agree', async () => {
    // the first read of the history already speaks of the next block
    const { fetcher, reads } = fakeFetcher((endpoint, read) => (read === 1 && endpoint !== 'baseFeeHistory' ? 100 : 101))
    const data = await loadChain(1, fetcher)
    expect(data.freshness.blockNumber).toBe(101)
    expect([...reads.values()]).toEqual([2, 2, 2, 2, 2])
  })

  test('behavior: stale when any of the five is stale', async () => {
    const fetcher = (async (path: string) => ({
      data: BODY[path.split('/').at(-1)!],
      freshness: { ...freshness(5), stale: path.endsWith('busyThreshold') },
    })) as unknown as typeof fetchApi
    expect((await loadChain(1, fetcher)).freshness.stale).toBe(true)
  })

  test(`error: answers that never agree are an error after ${SAME_BLOCK_TRIES} tries, not mixed numbers`, async () => {
    const { fetcher, reads } = fakeFetcher((endpoint, read) => (endpoint === 'baseFeeHistory' ? 200 + read : 100 + read))
    await expect(loadChain(1, fetcher)).rejects.toThrow(/different blocks/)
    expect(reads.get('suggestedGasFees')).toBe(SAME_BLOCK_TRIES)
  })

  test('behavior: on a chain with blobs, GET blobFees of the same block too; read again with the others when it straddles', async () => {
    BODY.blobFees = BLOB_FEES
    try {
      const { fetcher, reads } = fakeFetcher((endpoint, read) => (read === 1 && endpoint === 'blobFees' ? 99 : 100))
      const data = await loadChain(1, fetcher)
      expect(data.blobFees).toEqual(BLOB_FEES)
      expect(data.freshness.blockNumber).toBe(100)
      expect(reads.get('blobFees')).toBe(2)
      expect(reads.get('suggestedGasFees')).toBe(2)
    } finally {
      delete BODY.blobFees
    }
  })

  test('behavior: a chain without blobs (blobFees 400) has no blob fees and the rest as ever; its blobFees is not asked again', async () => {
    const { fetcher } = fakeFetcher(() => 100)
    const asked: string[] = []
    const counting = ((path: string, schema: unknown) => {
      asked.push(path)
      return (fetcher as (p: string, s: unknown) => unknown)(path, schema)
    }) as unknown as typeof fetchApi
    const data = await loadChain(1, counting)
    expect(data).not.toHaveProperty('blobFees')
    expect(data.fees).toEqual(FEES)
    await loadChain(1, counting)
    expect(asked.filter((p) => p.endsWith('/blobFees'))).toEqual(['/networks/1/blobFees'])
    expect(asked.filter((p) => p.endsWith('/suggestedGasFees'))).toHaveLength(2)
  })

  test('error: a failed read is passed on', async () => {
    const fetcher = (async () => {
      throw new ApiError(503, 'down', 2)
    }) as unknown as typeof fetchApi
    await expect(loadChain(1, fetcher)).rejects.toMatchObject({ status: 503, retryAfterSeconds: 2 })
  })
})
