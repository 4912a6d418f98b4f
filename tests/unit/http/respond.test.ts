import { describe, expect, test } from 'vitest'
import { FeeMarketUnsupportedError, NoPriceDataError } from '@/lib/core/errors'
import { ErrorBodySchema } from '@/lib/core/schemas'
import { toErrorResponse } from '@/lib/http/respond'

describe('toErrorResponse', () => {
  test('error: an EIP-1559 endpoint of a chain without EIP-1559 is 400', async () => {
    const res = toErrorResponse(new FeeMarketUnsupportedError(31339))
    expect(res.status).toBe(400)
    expect(ErrorBodySchema.parse(await res.json()).message).toMatch(/does not use EIP-1559/)
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
})
