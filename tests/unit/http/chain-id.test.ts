import { describe, expect, test } from 'vitest'
import { parseChainId } from '@/lib/http/chain-id'
import { InvalidChainIdError } from '@/lib/core/contract/errors'

describe('parseChainId', () => {
  test.each([
    ['1', 1],
    ['137', 137],
    ['11155111', 11155111],
    ['9007199254740991', 9007199254740991],
  ])('default: %s', (raw, id) => {
    expect(parseChainId(raw)).toBe(id)
  })

  test.each(['', '0', '-1', '01', '1.0', '0x1', '1e3', '+1', ' 1', '1 ', '９', '١', '..', '1/2', '9007199254740993', '1'.repeat(10_000)])(
    'error: "%s"',
    (raw) => {
      expect(() => parseChainId(raw)).toThrow(InvalidChainIdError)
    },
  )

  test('error: a 10,000-digit id is not echoed whole', () => {
    try {
      parseChainId('7'.repeat(10_000))
    } catch (err) {
      expect((err as Error).message.length).toBeLessThan(120)
    }
    expect.assertions(1)
  })
})
