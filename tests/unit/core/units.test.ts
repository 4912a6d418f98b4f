import { describe, expect, test } from 'vitest'
import { formatGwei, mulDivCeil, parseGwei } from '@/lib/core/units'

describe('formatGwei', () => {
  test.each([
    [0n, '0'],
    [1n, '0.000000001'],
    [10n, '0.00000001'],
    [999_999_999n, '0.999999999'],
    [1_000_000_000n, '1'],
    [1_500_000_000n, '1.5'],
    [12_345_678_901n, '12.345678901'],
    [100_000_000_000_000n, '100000'],
    [2n ** 256n - 1n, '115792089237316195423570985008687907853269984665640564039457584007913.129639935'],
  ])('behavior: %s wei is "%s"', (wei, gwei) => {
    expect(formatGwei(wei)).toBe(gwei)
  })

  test('behavior: never an exponent or a trailing zero', () => {
    for (const wei of [1n, 10n ** 21n, 10n ** 30n + 10n, 7n * 10n ** 8n]) {
      const s = formatGwei(wei)
      expect(s).not.toMatch(/e/i)
      expect(s).not.toMatch(/\.\d*0$/)
    }
  })

  test('error: negative amounts', () => {
    expect(() => formatGwei(-1n)).toThrow(RangeError)
  })
})

describe('parseGwei', () => {
  test('behavior: inverts formatGwei', () => {
    for (const wei of [0n, 1n, 123_456_789n, 10n ** 9n, 2n ** 200n + 3n]) expect(parseGwei(formatGwei(wei))).toBe(wei)
  })
  test.each(['', '1e9', '0x1', '-1', '1.0000000001', '01', '.5'])('error: "%s"', (s) => {
    expect(() => parseGwei(s)).toThrow(RangeError)
  })
})

describe('mulDivCeil', () => {
  test('behavior: rounds up, never down', () => {
    expect(mulDivCeil(10n, 9n, 8n)).toBe(12n) // 11.25 → 12
    expect(mulDivCeil(8n, 9n, 8n)).toBe(9n)
    expect(mulDivCeil(0n, 9n, 8n)).toBe(0n)
  })
})
