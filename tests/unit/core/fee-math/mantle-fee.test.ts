// Mantle's Arsia fees against mantle-xyz/op-geth @ 11fa8109 core/types/rollup_cost_test.go
// (TestArsiaL1CostFuncMinimumBounds, TestArsiaL1CostSolidityParity, TestNewOperatorCostFunc,
// TestTotalRollupCostFunc).
import { describe, expect, test } from 'vitest'
import { fjordL1Cost } from '@/lib/core/fee-math/l1-fee'
import { mantleL1DataFee, mantleOperatorFee, type MantleParams } from '@/lib/core/fee-math/mantle-fee'
import { MANTLE_GETH } from '../../../support/rollup-vectors'

// rollup_cost_test.go: baseFee 1000 × 1e6, blobBaseFee 10 × 1e6, scalars 2 / 3, tokenRatio 1e6, and its operator fee
const geth: MantleParams = { ...MANTLE_GETH }

describe('mantleL1DataFee', () => {
  test.each([100n, 150n, 170n])(
    'default: FastLZ size %i is at the minimum size: 3,203,000,000,000 MNT wei (TestArsiaL1CostFuncMinimumBounds)',
    (size) => {
      expect(mantleL1DataFee(fjordL1Cost(size, geth), geth)).toBe(3_203_000_000_000n)
    },
  )

  test.each([171n, 175n, 200n])('behavior: FastLZ size %i is above the minimum', (size) => {
    expect(mantleL1DataFee(fjordL1Cost(size, geth), geth) > 3_203_000_000_000n).toBe(true)
  })

  test('behavior: Solidity parity at tokenRatio 1: FastLZ size 235 costs 105,484 (TestArsiaL1CostSolidityParity)', () => {
    const p = { ...geth, l1BaseFee: '2000000', blobBaseFee: '3000000', baseFeeScalar: 20, blobBaseFeeScalar: 15, tokenRatio: '1' }
    expect(mantleL1DataFee(fjordL1Cost(235n, p), p)).toBe(105_484n)
  })

  test('behavior: the Fjord fee is floored before tokenRatio multiplies it', () => {
    // 100e6 × (2 × 16 × 7 + 3 × 1) / 1e12 = 0.0227: 0 before the multiplication, not 22,700 after it
    const p = { ...geth, l1BaseFee: '7', blobBaseFee: '1' }
    expect(mantleL1DataFee(fjordL1Cost(100n, p), p)).toBe(0n)
  })
})

describe('mantleOperatorFee', () => {
  test('default: gas 1,618 × scalar 1,439,103,868 × 100 + constant: 1,256,650,673,615,173,860 (TestNewOperatorCostFunc)', () => {
    expect(mantleOperatorFee(1_618n, geth)).toBe(1_256_650_673_615_173_860n)
  })

  test('behavior: with the minimum L1 fee, the total of TestTotalRollupCostFunc: 1,256,653,876,615,173,860', () => {
    expect(mantleL1DataFee(fjordL1Cost(170n, geth), geth) + mantleOperatorFee(1_618n, geth)).toBe(1_256_653_876_615_173_860n)
  })
})
