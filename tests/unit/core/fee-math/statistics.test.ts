import { describe, expect, test } from 'vitest'
import { median, percentileNearestRank, percentileRank, range } from '@/lib/core/fee-math/statistics'
import { readJson } from '../../../support/shared-data'

describe('percentileNearestRank', () => {
  const ten = [10n, 20n, 30n, 40n, 50n, 60n, 70n, 80n, 90n, 100n]
  test.each([
    [0, 10n],
    [1, 10n],
    [10, 10n],
    [11, 20n],
    [50, 50n],
    [90, 90n],
    [91, 100n],
    [100, 100n],
  ])('args: p=%s of 10..100 is %s', (p, want) => {
    expect(percentileNearestRank(ten, p)).toBe(want)
  })
  test('behavior: order of the input does not matter', () => {
    expect(percentileNearestRank([5n, 1n, 4n, 2n, 3n], 50)).toBe(3n)
    expect(median([9n, 1n])).toBe(1n) // lower median
  })
  test('error: empty list, p out of range', () => {
    expect(() => percentileNearestRank([], 50)).toThrow(RangeError)
    expect(() => percentileNearestRank([1n], 101)).toThrow(RangeError)
    expect(() => percentileNearestRank([1n], Number.NaN)).toThrow(RangeError)
  })
})

describe('percentileRank', () => {
  test('behavior: fraction at or below', () => {
    expect(percentileRank([1n, 2n, 3n, 4n], 2n)).toBe(0.5)
    expect(percentileRank([1n, 2n, 3n, 4n], 0n)).toBe(0)
    expect(percentileRank([1n, 2n, 3n, 4n], 4n)).toBe(1)
  })
})

describe('real window: Polygon PoS eth_feeHistory, 1,024 blocks', () => {
  const { result } = readJson<{ result: { baseFeePerGas: string[] } }>('polygon-pos-feehistory-1024blk', 'fee_history.json')
  const fees = result.baseFeePerGas.slice(0, -1).map(BigInt)

  test('behavior: p50 and p90 are members of the window that split it as the definition says', () => {
    expect(fees).toHaveLength(1024)
    for (const p of [50, 90]) {
      const v = percentileNearestRank(fees, p)
      expect(fees).toContain(v)
      const atOrBelow = fees.filter((f) => f <= v).length
      const below = fees.filter((f) => f < v).length
      expect(atOrBelow / fees.length).toBeGreaterThanOrEqual(p / 100)
      expect(below / fees.length).toBeLessThan(p / 100)
    }
  })

  test('behavior: range brackets every value', () => {
    const [lo, hi] = range(fees)
    expect(fees.every((f) => f >= lo && f <= hi)).toBe(true)
    expect(fees).toContain(lo)
    expect(fees).toContain(hi)
  })
})
