import { describe, expect, test } from 'vitest'
import { InvalidQueryError } from '@/lib/core/contract/errors'
import { parseLane } from '@/lib/http/lane-query'
import { parseTransactionCostQuery } from '@/lib/http/transaction-cost-query'

describe('parseLane', () => {
  test.each([
    ['', undefined],
    ['lane=small', 'small'],
    ['lane=big', 'big'],
    ['foo=1&lane=big', 'big'],
  ])('default: %j is %s', (query, lane) => {
    expect(parseLane(new URLSearchParams(query))).toBe(lane)
  })

  test.each([
    ['lane=BIG', /'BIG'.*small.*big/],
    ['lane=', /''/],
    ['lane=huge', /'huge'/],
    ['lane=big&lane=small', /more than once/],
  ])('error: %j: 400 naming lane', (query, message) => {
    const error = (() => {
      try {
        parseLane(new URLSearchParams(query))
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(InvalidQueryError)
    expect((error as InvalidQueryError).parameter).toBe('lane')
    expect((error as Error).message).toMatch(message)
  })

  test('behavior: transactionCost takes lane beside gas', () => {
    expect(parseTransactionCostQuery(new URLSearchParams('gas=21000&lane=big'))).toEqual({ gas: 21_000n, lane: 'big' })
    expect(parseTransactionCostQuery(new URLSearchParams('gas=21000'))).toEqual({ gas: 21_000n })
    expect(() => parseTransactionCostQuery(new URLSearchParams('gas=21000&lane=x'))).toThrow(/lane/)
  })
})
