import type { L1FeeParams } from '@/lib/core/types'

/** The rollups' own test parameters, shared by every test that checks a rule against its source's vectors. */

type Params<R extends L1FeeParams['rule']> = Extract<L1FeeParams, { rule: R }>

/**
 * mantle-xyz/op-geth @ 11fa8109 core/types/rollup_cost_test.go: l1BaseFee 1e9, blobBaseFee 1e7, scalars 2 / 3, tokenRatio
 * 1e6 (L1 fee 3,203,000,000,000 MNT wei at the minimum size), and TestTotalRollupCostFunc's operator fee (1,256,650,673,
 * 615,173,860 for gas 1,618; total 1,256,653,876,615,173,860).
 */
export const MANTLE_GETH: Params<'mantle'> = {
  rule: 'mantle',
  l1BaseFee: '1000000000',
  blobBaseFee: '10000000',
  baseFeeScalar: 2,
  blobBaseFeeScalar: 3,
  tokenRatio: '1000000',
  operatorFeeScalar: 1_439_103_868,
  operatorFeeConstant: '1256417826609331460',
}

/** scroll-tech/scroll-revm @ a1ac004a src/l1block.rs test_rollup_fee_galileo (cs 50 → 171,557,471,810 wei, …). */
export const SCROLL_REVM: Params<'scroll'> = {
  rule: 'scroll',
  l1BaseFee: '1000000000',
  l1BlobBaseFee: '1000000000',
  commitScalar: '2394981796',
  blobScalar: '1019097245',
  penaltyFactor: '10000',
}
