import { describe, expect, test } from 'vitest'
import { blockTicks, indexAfterKey, indexAt, niceTicks } from '@/app/_components/chart-scale'

describe('niceTicks', () => {
  test.each([
    [0, 10, 4, [0, 2, 4, 6, 8, 10]],
    [1.3e9, 2.9e9, 4, [1.5e9, 2e9, 2.5e9]],
    [13, 97, 4, [20, 40, 60, 80]],
    [5, 5, 4, [5]],
  ])('behavior: %s…%s (about %s) → %j', (lo, hi, target, want) => {
    const ticks = niceTicks(lo, hi, target)
    expect(ticks.map((t) => Math.round(t * 1e6) / 1e6)).toEqual(want)
  })
  test('behavior: every tick is inside the range', () => {
    for (const [lo, hi] of [
      [0.123, 0.987],
      [1e7, 1.0001e7],
      [7_000_000_001, 9_999_999_999],
    ] as const)
      for (const t of niceTicks(lo, hi)) expect(t >= lo - 1e-9 && t <= hi + 1e-9).toBe(true)
  })
})

describe('blockTicks', () => {
  test('default: round block numbers in the window', () => {
    expect(blockTicks(19_999_501, 20_000_000)).toEqual([19_999_600, 19_999_700, 19_999_800, 19_999_900, 20_000_000])
    expect(blockTicks(1, 3)).toEqual([1, 2, 3])
    expect(blockTicks(7, 7)).toEqual([7])
  })
})

describe('indexAt', () => {
  test.each([
    [0, 500, 0],
    [1, 500, 499],
    [0.5, 500, 250],
    [-0.2, 500, 0],
    [1.3, 500, 499],
    [0.7, 1, 0],
  ])('behavior: fraction %s of %s points → %s', (f, n, want) => {
    expect(indexAt(f, n)).toBe(want)
  })
})

describe('indexAfterKey', () => {
  test.each([
    ['ArrowLeft', 10, 9],
    ['ArrowDown', 10, 9],
    ['ArrowRight', 10, 11],
    ['ArrowUp', 10, 11],
    ['PageDown', 10, 0],
    ['PageUp', 10, 20],
    ['Home', 10, 0],
    ['End', 10, 499],
    ['ArrowRight', 499, 499],
    ['ArrowLeft', 0, 0],
    ['ArrowLeft', undefined, 498],
    ['a', 10, undefined],
  ] as const)('behavior: %s from %s → %s', (key, from, want) => {
    expect(indexAfterKey(key, from, 500)).toBe(want)
  })
})
