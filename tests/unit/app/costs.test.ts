import { describe, expect, test } from 'vitest'
import { actionCost, COMMON_ACTIONS, formatUnitsExact, formatUnitsShort } from '@/app/_components/costs'
import type { SuggestedGasFees } from '@/lib/core/contract/schemas'

const level = (max: string, tip: string) => ({
  suggestedMaxFeePerGas: max,
  suggestedMaxPriorityFeePerGas: tip,
  minWaitTimeEstimate: 0,
  maxWaitTimeEstimate: 0,
})
const fees = (base: string, low = level('30', '1'), medium = level('40', '2'), high = level('50.000000001', '3')) =>
  ({ low, medium, high, estimatedBaseFee: base }) as SuggestedGasFees

describe('actionCost', () => {
  test('default: likely = gas × (next base fee + priority fee), max = gas × max fee, in wei', () => {
    expect(actionCost(21_000n, fees('20.5'), 'low')).toEqual({ likelyWei: 21_000n * 21_500_000_000n, maxWei: 21_000n * 30_000_000_000n })
    expect(actionCost(150_000n, fees('20.5'), 'high')).toEqual({
      likelyWei: 150_000n * 23_500_000_000n,
      maxWei: 150_000n * 50_000_000_001n,
    })
  })

  test('behavior: exact to the wei for sub-gwei fees (no floating point)', () => {
    expect(actionCost(65_000n, fees('0.000000007', level('0.000000019', '0.000000001')), 'low')).toEqual({
      likelyWei: 65_000n * 8n,
      maxWei: 65_000n * 19n,
    })
  })

  test('behavior: the likely cost never exceeds the max (EIP-1559 pays min(max fee, base fee + tip))', () => {
    expect(actionCost(21_000n, fees('35'), 'low')).toEqual({ likelyWei: 21_000n * 30_000_000_000n, maxWei: 21_000n * 30_000_000_000n })
  })

  test('default: the actions are a transfer, an ERC-20 transfer and a swap', () => {
    expect(COMMON_ACTIONS.map((a) => [a.key, a.gas])).toEqual([
      ['transfer', 21_000n],
      ['erc20', 65_000n],
      ['swap', 150_000n],
    ])
  })
})

describe('formatUnitsExact', () => {
  test.each([
    [0n, 18, '0'],
    [1n, 18, '0.000000000000000001'],
    [10n ** 18n, 18, '1'],
    [1_234_500_000_000_000_000n, 18, '1.2345'],
    [123n, 0, '123'],
    [150n, 2, '1.5'],
  ])('behavior: %s at %s decimals reads %s', (amount, decimals, want) => {
    expect(formatUnitsExact(amount, decimals)).toBe(want)
  })
  test('error: a negative amount', () => {
    expect(() => formatUnitsExact(-1n, 18)).toThrow(RangeError)
  })
})

describe('formatUnitsShort', () => {
  test.each([
    [0n, '0'],
    [21_000n * 1_500_000_000n, '0.0000315'], // a transfer at 1.5 gwei
    [21_000n * 1_234_567_891n, '0.0000259'],
    [150_000n * 33_333_333_333n, '0.005'], // 0.00499999… rounds half up to 3 digits
    [1_234_567_000_000_000_000_000n, '1,230'],
    [999_600_000_000_000_000n, '1'],
    [7n, '0.000000000000000007'],
  ])('behavior: %s wei reads %s', (wei, want) => {
    expect(formatUnitsShort(wei, 18)).toBe(want)
    expect(formatUnitsShort(wei, 18)).not.toMatch(/e/i)
  })
})
