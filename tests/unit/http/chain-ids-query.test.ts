import { describe, expect, test } from 'vitest'
import { MAX_CHAIN_IDS, parseChainIdsQuery } from '@/lib/http/chain-ids-query'
import { InvalidQueryError } from '@/lib/core/contract/errors'

const parse = (query: string) => parseChainIdsQuery(new URLSearchParams(query))

describe('parseChainIdsQuery', () => {
  test('default: the ids in the order given', () => {
    expect(parse('chainIds=1,8453,42161')).toEqual([1, 8453, 42161])
    expect(parse('chainIds=42161,1')).toEqual([42161, 1])
    expect(parse('chainIds=11155111')).toEqual([11155111])
  })

  test('args: no chainIds is every supported chain (null)', () => {
    expect(parse('')).toBeNull()
  })

  test('args: a percent-encoded comma separates as a comma does', () => {
    expect(parse('chainIds=1%2C10')).toEqual([1, 10])
  })

  test(`args: ${MAX_CHAIN_IDS} ids are taken`, () => {
    const ids = Array.from({ length: MAX_CHAIN_IDS }, (_, i) => i + 1)
    expect(parse(`chainIds=${ids.join(',')}`)).toEqual(ids)
  })

  test.each([
    ['empty', 'chainIds='],
    ['an empty entry', 'chainIds=1,,10'],
    ['a trailing comma', 'chainIds=1,10,'],
    ['a leading comma', 'chainIds=,1'],
    ['a leading zero', 'chainIds=1,010'],
    ['hex', 'chainIds=0x1'],
    ['a sign', 'chainIds=+1'],
    ['a space', 'chainIds=1,%2010'],
    ['zero', 'chainIds=0'],
    ['an exponent', 'chainIds=1e3'],
    ['past a safe integer', 'chainIds=9007199254740993'],
    ['a duplicate', 'chainIds=1,10,1'],
    [`more than ${MAX_CHAIN_IDS} ids`, `chainIds=${Array.from({ length: MAX_CHAIN_IDS + 1 }, (_, i) => i + 1).join(',')}`],
    ['the parameter repeated', 'chainIds=1&chainIds=10'],
    ['the parameter repeated empty', 'chainIds=1&chainIds='],
    ['an unknown parameter', 'chainIds=1&chainId=10'],
    ['an unknown parameter alone', 'chain=1'],
    ['the name in another case', 'chainids=1'],
  ])('error: %s is a 400 naming chainIds', (_, query) => {
    let error: unknown
    try {
      parse(query)
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(InvalidQueryError)
    expect((error as Error).message).toContain('chainIds')
  })

  test('error: a long entry is not echoed whole', () => {
    expect(() => parse(`chainIds=${'x'.repeat(10_000)}`)).toThrow(/^.{0,200}$/)
  })
})
