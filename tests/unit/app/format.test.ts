import { describe, expect, test } from 'vitest'
import {
  congestionLevel,
  forecastHorizonText,
  formatAge,
  formatBlocks,
  formatGweiShort,
  formatPercent,
  formatShare,
  formatWait,
} from '@/app/_components/format'

describe('formatGweiShort', () => {
  test.each([
    ['0', '0'],
    ['0.000000001', '0.000000001'], // 1 wei
    ['0.000000007', '0.000000007'],
    ['0.000019121', '0.0000191'],
    ['0.610244561', '0.61'],
    ['0.436099999', '0.436'],
    ['0.9996', '1.00'],
    ['1', '1.00'],
    ['1.745805210', '1.75'],
    ['12.344999999', '12.34'],
    ['750.037931823', '750.04'],
    ['123456.789', '123,456.79'],
  ])('behavior: %s gwei reads "%s"', (gwei, want) => {
    expect(formatGweiShort(gwei)).toBe(want)
  })
  test('behavior: never an exponent, even for 1 wei or 10^30 wei', () => {
    expect(formatGweiShort('0.000000001')).not.toMatch(/e/i)
    expect(formatGweiShort('1000000000000000000000')).not.toMatch(/e/i)
  })
})

describe('formatWait', () => {
  test.each([
    [12_000, 24_000, '12–24 s'],
    [12_000, 36_000, '12–36 s'],
    [2_016, 6_048, '2–6 s'],
    [250, 500, '0.3–0.5 s'],
    [1_000, 1_000, '~1 s'],
    [12_000, 120_000, '0.2–2 min'],
    [120_000, 360_000, '2–6 min'],
  ])('behavior: %s–%s ms reads "%s"', (min, max, want) => {
    expect(formatWait(min, max)).toBe(want)
  })
})

describe('formatPercent', () => {
  test.each([
    [0, '0%'],
    [0.554, '55%'],
    [0.555, '56%'],
    [1, '100%'],
    [1.2, '100%'],
    [-0.1, '0%'],
  ])('behavior: %s reads "%s"', (f, want) => {
    expect(formatPercent(f)).toBe(want)
  })
})

describe('formatAge', () => {
  test.each([
    [0, '0 s'],
    [42.9, '42 s'],
    [185, '3 min 5 s'],
    [7260, '2 h 1 min'],
    [-3, '0 s'],
  ])('behavior: %s s reads "%s"', (s, want) => {
    expect(formatAge(s)).toBe(want)
  })
})

describe('congestionLevel', () => {
  test('behavior: busy above the busy threshold, quiet below the median, normal between (inclusive)', () => {
    expect(congestionLevel('1.2', '0.5', '1.1')).toBe('busy')
    expect(congestionLevel('1.1', '0.5', '1.1')).toBe('normal')
    expect(congestionLevel('0.5', '0.5', '1.1')).toBe('normal')
    expect(congestionLevel('0.499999999', '0.5', '1.1')).toBe('quiet')
  })
})

describe('formatShare', () => {
  test.each([
    [0.972, '97.2%'],
    [0.97249, '97.2%'],
    [0.9725, '97.3%'],
    [1, '100.0%'],
    [0, '0.0%'],
  ])('behavior: %s reads "%s"', (f, want) => {
    expect(formatShare(f)).toBe(want)
  })
})

describe('formatBlocks', () => {
  test.each([
    [1, '1 block'],
    [3, '3 blocks'],
    [2.5, '2.5 blocks'],
  ])('behavior: %s reads "%s"', (n, want) => {
    expect(formatBlocks(n)).toBe(want)
  })
})

describe('forecastHorizonText', () => {
  test.each([
    [
      { blocks: 3, p50: '1.205', p90: '1.349999999', p99: '1.52', bound: '1.712' },
      1234,
      'Block +3 (1237): p50 1.21 gwei, p90 1.35 gwei, p99 1.52 gwei, bound 1.71 gwei',
    ],
    [
      { blocks: 1, p50: '0.02', p90: '0.02', p99: '0.02', bound: null },
      9,
      'Block +1 (10): p50 0.02 gwei, p90 0.02 gwei, p99 0.02 gwei, no protocol bound',
    ],
  ])('behavior: %j at head %i reads "%s"', (horizon, head, want) => {
    expect(forecastHorizonText(horizon, head)).toBe(want)
  })
})
