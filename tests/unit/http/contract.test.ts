import { describe, expect, test } from 'vitest'
import { assertContract, contractViolations, streamEventViolations, type LiveAnswer } from '@/tests/support/contract'

const FEES = {
  low: { suggestedMaxPriorityFeePerGas: '0.05', suggestedMaxFeePerGas: '24.08', minWaitTimeEstimate: 12000, maxWaitTimeEstimate: 48000 },
  medium: { suggestedMaxPriorityFeePerGas: '0.1', suggestedMaxFeePerGas: '32.11', minWaitTimeEstimate: 12000, maxWaitTimeEstimate: 36000 },
  high: { suggestedMaxPriorityFeePerGas: '0.3', suggestedMaxFeePerGas: '40.34', minWaitTimeEstimate: 12000, maxWaitTimeEstimate: 24000 },
  estimatedBaseFee: '16.05',
  networkCongestion: 0.52,
  latestPriorityFeeRange: ['0', '3'],
  historicalPriorityFeeRange: ['0.000000001', '89'],
  historicalBaseFeeRange: ['13.9', '33.3'],
  priorityFeeTrend: 'down',
  baseFeeTrend: 'up',
}
const FRESHNESS = {
  'content-type': 'application/json; charset=utf-8',
  'x-block-number': '550',
  'x-block-timestamp': '1795314305',
  'x-block-interval-ms': '2156',
  'x-chain-id': '1',
  age: '0',
  'x-data-stale': 'false',
  'cache-control': 'private, max-age=2',
}
const FORECAST = {
  blockNumber: 550,
  estimatedBaseFee: '16.05',
  horizons: Array.from({ length: 10 }, (_, i) => ({ blocks: i + 1, p50: '16.05', p90: '16.05', p99: '16.05', bound: null })),
}
const BLOB_FEES = {
  blockNumber: 550,
  estimatedBlobBaseFee: '0.000023461',
  low: { suggestedMaxFeePerBlobGas: '0.000043966' },
  medium: { suggestedMaxFeePerBlobGas: '0.000043966' },
  high: { suggestedMaxFeePerBlobGas: '0.000043966' },
  blobGasUsedRatio: [0, 0.5, 1],
  blobTarget: 14,
  blobMax: 21,
  forecast: {
    method: 'window',
    horizons: Array.from({ length: 10 }, (_, i) => ({
      blocks: i + 1,
      p50: '0.000023461',
      p90: '0.000023461',
      p99: '0.000023461',
      bound: '0.000043966',
    })),
  },
}
const ok: LiveAnswer = { method: 'GET', path: '/networks/1/suggestedGasFees', status: 200, headers: new Headers(FRESHNESS), body: FEES }
const error = (status: number, headers: Record<string, string> = {}): LiveAnswer => ({
  method: 'GET',
  path: '/networks/1/busyThreshold',
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: { statusCode: status, error: 'x', message: 'y' },
})

describe('contractViolations', () => {
  test.each<[string, LiveAnswer]>([
    ['a 200 with its headers and body', ok],
    ['HEAD: no body', { ...ok, method: 'HEAD', body: '' }],
    ['a 400 error body', error(400)],
    ['a 401 with its challenge', error(401, { 'www-authenticate': 'Basic realm="gas-api"' })],
    ['a 503 with Retry-After', error(503, { 'retry-after': '1' })],
    ['a query string is not part of the path', { ...ok, path: '/networks/1/suggestedGasFees?x=1' }],
    ['a base-fee forecast', { ...ok, path: '/networks/1/baseFeeForecast', body: FORECAST }],
    [
      'a base-fee forecast with bounds',
      {
        ...ok,
        path: '/networks/1/baseFeeForecast',
        body: { ...FORECAST, horizons: FORECAST.horizons.map((h) => ({ ...h, bound: '20.5' })) },
      },
    ],
    ['blob fees', { ...ok, path: '/networks/1/blobFees', body: BLOB_FEES }],
    [
      '/readyz 503 with its chains',
      {
        method: 'GET',
        path: '/readyz',
        status: 503,
        headers: { 'content-type': 'application/json', 'retry-after': '5' },
        body: { statusCode: 503, error: 'Service Unavailable', message: 'm', chains: [{ chainId: 1, ready: false, reason: 'never read' }] },
      },
    ],
  ])('default: %s conforms', (_, answer) => {
    expect(contractViolations(answer)).toEqual({ outside: false, violations: [] })
    expect(() => assertContract(answer)).not.toThrow()
  })

  test('behavior: a path the document does not describe is outside the contract', () => {
    expect(contractViolations({ ...ok, path: '/networks/1/nope/more', status: 404 })).toEqual({ outside: true, violations: [] })
  })

  test.each<[string, LiveAnswer, RegExp]>([
    ['a body field missing', { ...ok, body: { ...FEES, baseFeeTrend: undefined } }, /body .*baseFeeTrend/],
    ['a field the schema does not have', { ...ok, body: { ...FEES, extra: 1 } }, /body .*additional properties/],
    ['a fee that is not decimal gwei', { ...ok, body: { ...FEES, estimatedBaseFee: '1e9' } }, /estimatedBaseFee must match pattern/],
    ['a status not listed', { ...ok, status: 418 }, /status 418 is not documented/],
    [
      'a required header missing',
      { ...ok, headers: { ...FRESHNESS, 'x-block-number': undefined } },
      /required header X-Block-Number is missing/,
    ],
    ['a header of the wrong type', { ...ok, headers: { ...FRESHNESS, 'x-data-stale': 'maybe' } }, /header X-Data-Stale/],
    ['another content type', { ...ok, headers: { ...FRESHNESS, 'content-type': 'text/html' } }, /content type "text\/html"/],
    ['a body that is not JSON', { ...ok, body: '<html>' }, /not JSON/],
    ['an error in another shape', { ...error(400), body: { error: 'bad' } }, /body .*statusCode/],
    ['a 429 without Retry-After', error(429), /Retry-After is missing/],
    ['a method the path does not answer', { ...ok, method: 'TRACE', path: '/healthz' }, /no TRACE \/healthz/],
    [
      'a forecast of 9 horizons',
      { ...ok, path: '/networks/1/baseFeeForecast', body: { ...FORECAST, horizons: FORECAST.horizons.slice(1) } },
      /horizons must NOT have fewer than 10 items/,
    ],
    [
      'a forecast bound that is neither gwei nor null',
      { ...ok, path: '/networks/1/baseFeeForecast', body: { ...FORECAST, horizons: FORECAST.horizons.map((h) => ({ ...h, bound: 0 })) } },
      /bound/,
    ],
    [
      'a forecast with its method',
      { ...ok, path: '/networks/1/baseFeeForecast', body: { ...FORECAST, method: 'window' } },
      /additional properties/,
    ],
    ['blob fees without blobMax', { ...ok, path: '/networks/1/blobFees', body: { ...BLOB_FEES, blobMax: undefined } }, /blobMax/],
    [
      'blob fees with an extra field',
      { ...ok, path: '/networks/1/blobFees', body: { ...BLOB_FEES, fork: 'BPO2' } },
      /additional properties/,
    ],
    [
      'a blob fee in wei, not gwei',
      { ...ok, path: '/networks/1/blobFees', body: { ...BLOB_FEES, estimatedBlobBaseFee: 23461 } },
      /estimatedBlobBaseFee/,
    ],
  ])('error: %s', (_, answer, message) => {
    const { violations } = contractViolations(answer)
    expect(violations.join('\n')).toMatch(message)
    expect(() => assertContract(answer)).toThrow(/breaks GET \/openapi.json/)
  })
})

describe('streamEventViolations', () => {
  const event = {
    blockNumber: 550,
    stale: false,
    suggestedGasFees: FEES,
    busyThreshold: { busyThreshold: '30' },
    baseFeePercentile: { baseFeePercentile: '20' },
    baseFeeHistory: ['20', '21'],
    baseFeeForecast: FORECAST,
  }
  test('default: fees and error events', () => {
    expect(streamEventViolations('fees', event)).toEqual([])
    // on a chain with blobs, GET blobFees' body as well
    expect(streamEventViolations('fees', { ...event, blobFees: BLOB_FEES })).toEqual([])
    expect(streamEventViolations('error', { statusCode: 503, error: 'Service Unavailable', message: 'm' })).toEqual([])
  })
  test('error: a wrong event or data', () => {
    expect(streamEventViolations('fees', { ...event, blockNumber: -1 })).not.toEqual([])
    expect(streamEventViolations('fees', { ...event, baseFeeForecast: undefined })).not.toEqual([])
    expect(streamEventViolations('fees', { ...event, blobFees: { ...BLOB_FEES, low: {} } })).not.toEqual([])
    expect(streamEventViolations('update', event)).toEqual(['stream: event "update" is not documented'])
  })
})
