import { describe, expect, test } from 'vitest'
import { InvalidQueryError } from '@/lib/core/contract/errors'
import { MAX_UINT256 } from '@/lib/core/fee-math/replacement'
import { parseFeeParameter, parseReplacementQuery } from '@/lib/http/replacement-query'
import { formatGwei } from '@/lib/core/units'

const parse = (query: string) => parseReplacementQuery(new URLSearchParams(query))

/** The InvalidQueryError a query raises: its parameter and message. */
function refusal(query: string): { parameter: string; message: string } {
  try {
    parse(query)
  } catch (err) {
    if (err instanceof InvalidQueryError) return { parameter: err.parameter, message: err.message }
    throw err
  }
  throw new Error(`'${query}' was accepted`)
}

describe('parseReplacementQuery', () => {
  test('default: an EIP-1559 transaction, gwei to wei', () => {
    expect(parse('maxFeePerGas=30.5&maxPriorityFeePerGas=0.000000001')).toEqual({
      type: 'eip1559',
      maxFeePerGas: 30_500_000_000n,
      maxPriorityFeePerGas: 1n,
    })
  })

  test('args: a blob transaction', () => {
    expect(parse('maxFeePerGas=10&maxPriorityFeePerGas=1&maxFeePerBlobGas=0.5')).toEqual({
      type: 'blob',
      maxFeePerGas: 10_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
      maxFeePerBlobGas: 500_000_000n,
    })
  })

  test('args: a legacy transaction', () => {
    expect(parse('gasPrice=25')).toEqual({ type: 'legacy', gasPrice: 25_000_000_000n })
  })

  test.each([
    ['maxFeePerGas=0&maxPriorityFeePerGas=0', 0n],
    ['maxFeePerGas=1.500000000&maxPriorityFeePerGas=0', 1_500_000_000n],
    [`maxFeePerGas=${formatGwei(MAX_UINT256)}&maxPriorityFeePerGas=0`, MAX_UINT256],
  ])('behavior: accepts %s', (query, maxFee) => {
    expect(parse(query)).toMatchObject({ maxFeePerGas: maxFee })
  })

  test.each([
    // [query, parameter named, message]
    ['', 'maxFeePerGas', /is missing: send maxFeePerGas and maxPriorityFeePerGas/],
    ['maxFeePerGas=1', 'maxPriorityFeePerGas', /is missing/],
    ['maxPriorityFeePerGas=1', 'maxFeePerGas', /is missing/],
    ['maxFeePerBlobGas=1', 'maxFeePerGas', /is missing/],
    ['maxFeePerGas=1&maxPriorityFeePerGas=1&foo=2', 'foo', /is unknown/],
    ['maxfeepergas=1&maxPriorityFeePerGas=1', 'maxfeepergas', /is unknown/],
    ['maxFeePerGas=1&maxFeePerGas=2&maxPriorityFeePerGas=1', 'maxFeePerGas', /more than once/],
    ['gasPrice=1&maxFeePerGas=1', 'maxFeePerGas', /cannot be sent with gasPrice/],
    ['gasPrice=1&maxPriorityFeePerGas=1', 'maxPriorityFeePerGas', /cannot be sent with gasPrice/],
    ['gasPrice=1&maxFeePerBlobGas=1', 'maxFeePerBlobGas', /cannot be sent with gasPrice/],
    ['gasPrice=-1', 'gasPrice', /is negative/],
    ['maxFeePerGas=-0.5&maxPriorityFeePerGas=0', 'maxFeePerGas', /is negative/],
    ['gasPrice=1e9', 'gasPrice', /has an exponent/],
    ['gasPrice=1.5E3', 'gasPrice', /has an exponent/],
    ['gasPrice=2e-9', 'gasPrice', /has an exponent/],
    ['gasPrice=1.0000000001', 'gasPrice', /more than 9 decimals/],
    ['gasPrice=0.0000000005', 'gasPrice', /more than 9 decimals/],
    ['gasPrice=', 'gasPrice', /is empty/],
    ['gasPrice=0x10', 'gasPrice', /not a decimal gwei amount/],
    ['gasPrice=01', 'gasPrice', /not a decimal gwei amount/],
    ['gasPrice=.5', 'gasPrice', /not a decimal gwei amount/],
    ['gasPrice=1.', 'gasPrice', /not a decimal gwei amount/],
    ['gasPrice=+1', 'gasPrice', /not a decimal gwei amount/],
    ['gasPrice=1,5', 'gasPrice', /not a decimal gwei amount/],
    ['gasPrice=Infinity', 'gasPrice', /not a decimal gwei amount/],
    [`gasPrice=${formatGwei(MAX_UINT256 + 1n)}`, 'gasPrice', /past 2\^256 − 1 wei/],
    ['maxFeePerGas=1&maxPriorityFeePerGas=1.000000001', 'maxPriorityFeePerGas', /is above maxFeePerGas/],
  ])('error: %s', (query, parameter, message) => {
    const r = refusal(query)
    expect(r.parameter).toBe(parameter)
    expect(r.message).toMatch(new RegExp(`^Query parameter '${parameter}' `))
    expect(r.message).toMatch(message)
  })

  test('error: a long value is cut short in the message', () => {
    const { message } = refusal(`gasPrice=${'9'.repeat(200)}`)
    expect(message).toMatch(/past 2\^256/)
    expect(message.length).toBeLessThan(200)
  })
})

describe('parseFeeParameter', () => {
  test('default: decimal gwei to wei', () => {
    expect(parseFeeParameter('gasPrice', '12.345678901')).toBe(12_345_678_901n)
  })
})
