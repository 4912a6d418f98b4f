// Scroll's Galileo rollup fee against scroll-tech/scroll-revm @ a1ac004a src/l1block.rs
// test_rollup_fee_galileo (the node's own vectors), and the derived end-to-end value of
// ../shared/research/rollup-fee-rules.md (reth compression.rs's galileo-mismatch transaction, cs 301).
import { describe, expect, test } from 'vitest'
import { scrollGalileoL1Fee, scrollL1FeeUpperBound, type ScrollParams } from '@/lib/core/fee-math/scroll-fee'
import { SCROLL_REVM } from '../../../support/rollup-vectors'

// l1block.rs test_rollup_fee_galileo: 1 gwei L1 and blob base fees, exec scalar 2.39, blob scalar 1.02 (×1e9)
const revm: ScrollParams = { ...SCROLL_REVM }

describe('scrollGalileoL1Fee', () => {
  test.each([
    [50, 171_557_471_810n],
    [100, 344_821_983_141n],
    [1024, 3_854_009_072_433n],
    [10 * 1024, 70_759_382_824_796n],
    [1024 * 1024, 378_961_881_717_079_120n],
  ])('default: compressed size %i: %i wei (test_rollup_fee_galileo)', (cs, fee) => {
    expect(scrollGalileoL1Fee(cs, revm)).toBe(fee)
  })

  test('behavior: the galileo-mismatch signed transaction of reth compression.rs (zstd size 301): 1,058,569,688,860 wei (derived)', () => {
    expect(scrollGalileoL1Fee(301, revm)).toBe(1_058_569_688_860n)
  })

  test('behavior: an empty transaction pays nothing; bigint and number sizes agree', () => {
    expect(scrollGalileoL1Fee(0, revm)).toBe(0n)
    expect(scrollGalileoL1Fee(1024n, revm)).toBe(scrollGalileoL1Fee(1024, revm))
  })

  test('behavior: a penalty factor of 0 counts as 1, as the node sanitizes it (no division by zero)', () => {
    const p = { ...revm, penaltyFactor: '0' }
    const base = (2_394_981_796n * 1_000_000_000n + 1_019_097_245n * 1_000_000_000n) * 10n
    expect(scrollGalileoL1Fee(10, p)).toBe((base + base * 10n) / 1_000_000_000n)
  })

  test('behavior: the fee is capped at 2^64 − 1, as the node caps it', () => {
    expect(scrollGalileoL1Fee(1, { ...revm, l1BaseFee: (1n << 200n).toString() })).toBe((1n << 64n) - 1n)
  })
})

describe('scrollL1FeeUpperBound', () => {
  test('default: the fee at the unsigned size + 68 bytes (a signature adds at most 68; the fee counts at most the raw length)', () => {
    expect(scrollL1FeeUpperBound(51, revm)).toBe(scrollGalileoL1Fee(119, revm))
    expect(scrollL1FeeUpperBound(51, revm)).toBe(411_110_083_208n)
  })

  test('behavior: never below the fee of a signed transaction of that unsigned size, however well it compresses', () => {
    // galileo-mismatch: 433 signed bytes, so at least 365 unsigned
    expect(scrollL1FeeUpperBound(433 - 68, revm) >= scrollGalileoL1Fee(301, revm)).toBe(true)
  })
})
