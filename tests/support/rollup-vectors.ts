import { parseTransaction, serializeTransaction, type Hex, type TransactionSerializable } from 'viem'
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

/**
 * scroll-tech/reth @ 7c14012f crates/scroll/alloy/evm/src/tx/compression.rs test_compression's galileo-mismatch: a
 * signed legacy transaction of chain 534352, 433 bytes, 301 compressed.
 */
export const GALILEO_MISMATCH_SIGNED: Hex =
  '0xf901ae8265f68301d52c8307040d94c9c35e593842c3d5e71304b2291e204583226e2a80b90144412658e5000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000fe0000000000000000000000000000000000000000020027004f00a500d100d500d900dd00ed00fd530000000000000000000000000000000000000406efdbff2a14a7c8e15944d1f4a48f9f95f663a4005300903c813df550a32d4a9d42010d057386429ad2328ed906efdbff2a14a7c8e15944d1f4a48f9f95f663a4530000000000000000000000000000000000000414ffa10b2019d6eb63140ef4b5026c7e049936bfeb00a900bdfeec4e40c170ef3736dc9a29389fb8cd7ed12409ae7bb52a3614ac5b66389d8873a8cb9f45f817c500a900bd000500010000000000000000000000000000187abb94380e0000000000000000000000092f2a085c00000083104ec3a0e3c466f58aa6edab61bd5f2bab117804d6f3cf125a815e53c161c02df8209d09a0267df663ab1cb9a5c85441df5051a7a03623b946a87ff42af694fc21e40f34fb'

/** The unsigned form of a signed transaction, as viem writes it. */
export function unsignedOf(signed: Hex): Hex {
  const { r: _r, s: _s, v: _v, yParity: _y, ...fields } = parseTransaction(signed)
  return serializeTransaction(fields as TransactionSerializable)
}
