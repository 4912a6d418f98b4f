import { describe, expect, test } from 'vitest'
import {
  BlobsUnsupportedError,
  BlobFeeMarketUnsupportedError,
  FeeMarketUnsupportedError,
  InvalidChainIdError,
  InvalidQueryError,
  MethodNotAllowedError,
  NoPriceDataError,
  NotFoundError,
  RateLimitedError,
  TooManyStreamsError,
  StreamCapacityError,
  UnauthenticatedError,
  UnsupportedChainError,
  UpstreamBadResponseError,
  UpstreamUnavailableError,
} from '@/lib/core/contract/errors'
import { ConfigError } from '@/lib/env'
import { ErrorBodySchema } from '@/lib/core/contract/schemas'
import { toErrorResponse } from '@/lib/http/error-answers'

describe('toErrorResponse', () => {
  test('error: an EIP-1559 endpoint of a chain without EIP-1559 is 400', async () => {
    const res = toErrorResponse(new FeeMarketUnsupportedError(31339))
    expect(res.status).toBe(400)
    expect(ErrorBodySchema.parse(await res.json()).message).toMatch(/does not use EIP-1559/)
  })

  test('error: blobFees of a chain without blobs is 400, the message saying so', async () => {
    const res = toErrorResponse(new BlobFeeMarketUnsupportedError(10))
    expect(res.status).toBe(400)
    expect(ErrorBodySchema.parse(await res.json())).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'Chain 10 carries no blobs (EIP-4844 blob transactions), so no blob fees exist for it.',
    })
  })

  test('error: gasPrices of a legacy chain with no priced transaction is 503 with Retry-After', async () => {
    const res = toErrorResponse(new NoPriceDataError(31339, 500))
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('5')
    expect(ErrorBodySchema.parse(await res.json())).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message:
        "Chain 31339's last 500 blocks hold no priced transaction to derive gas prices from. No gas price is available right now; retry shortly.",
    })
  })

  test.each([
    ['InvalidChainIdError', new InvalidChainIdError('x'), 400, {}, /not a valid chain id/],
    ['UnsupportedChainError', new UnsupportedChainError(5), 400, {}, /not a supported chain id/],
    ['InvalidQueryError', new InvalidQueryError('gasPrice', 'is negative.'), 400, {}, /^Query parameter 'gasPrice' is negative\.$/],
    ['BlobsUnsupportedError', new BlobsUnsupportedError(10), 400, {}, /'maxFeePerBlobGas' is not allowed: chain 10 takes no blob/],
    [
      'UnauthenticatedError',
      new UnauthenticatedError(),
      401,
      { 'www-authenticate': 'Basic realm="gas-api", charset="UTF-8"' },
      /HTTP Basic/,
    ],
    ['NotFoundError', new NotFoundError('Not found: /x.'), 404, {}, /^Not found: \/x\.$/],
    ['MethodNotAllowedError', new MethodNotAllowedError('POST'), 405, { allow: 'GET, HEAD, OPTIONS' }, /read-only/],
    [
      'RateLimitedError',
      new RateLimitedError(10, 60, 7, { 'x-ratelimit-limit': '10' }),
      429,
      { 'retry-after': '7', 'x-ratelimit-limit': '10' },
      /Rate limit of 10/,
    ],
    [
      'RateLimitedError, a list longer than what is left',
      new RateLimitedError(5, 60, 12, {}, { asked: 4, left: 3 }),
      429,
      { 'retry-after': '12' },
      /^This call counts 4 requests, one per chain it names, and 3 are left of the rate limit of 5 requests per 60 s .*; retry in 12 s\.$/,
    ],
    [
      'RateLimitedError, a list longer than the quota',
      new RateLimitedError(5, 60, 120, {}, { asked: 6, left: 5 }),
      429,
      {},
      /^This call counts 6 requests, .*so it never fits; name at most 5 chains a call\.$/,
    ],
    ['TooManyStreamsError', new TooManyStreamsError(2), 429, { 'retry-after': '5' }, /2 open streams/],
    [
      'TooManyStreamsError, a list',
      new TooManyStreamsError(10, false, 4),
      429,
      {},
      /^This stream names 4 chains .* more than this API key has free of its 10; close a stream, or retry in 5 s\.$/,
    ],
    [
      'TooManyStreamsError, a list past the ceiling',
      new TooManyStreamsError(4, false, 5),
      429,
      {},
      /more than the 4 this API key may hold, so it never opens; name at most 4 chains a stream\.$/,
    ],
    [
      'StreamCapacityError, a list past the keyless ceiling',
      new StreamCapacityError('keyless', 3, 4),
      503,
      {},
      /more than the 3 the keyless tier may hold, so it never opens; name fewer chains, or send an API key/,
    ],
    ['UpstreamBadResponseError', new UpstreamBadResponseError('Bad answer.'), 502, {}, /^Bad answer\.$/],
    [
      'UpstreamUnavailableError',
      new UpstreamUnavailableError('Down.', { retryAfterSeconds: 3 }),
      503,
      { 'retry-after': '3' },
      /^Down\. No fee data is available right now; retry shortly\.$/,
    ],
    [
      'ConfigError',
      new ConfigError('Invalid configuration in API_KEYS'),
      503,
      { 'retry-after': '60' },
      /^The service is misconfigured; its operator has been told\.$/,
    ],
    ['an unknown error', new Error('boom at https://key@rpc.example'), 500, {}, /^An unexpected error occurred\.$/],
  ] as const)('error: %s', async (_, err, status, headers, message) => {
    const res = toErrorResponse(err)
    expect(res.status).toBe(status)
    for (const [name, value] of Object.entries(headers)) expect(res.headers.get(name)).toBe(value)
    const body = ErrorBodySchema.parse(await res.json())
    expect(body.statusCode).toBe(status)
    expect(body.message).toMatch(message)
  })
})
