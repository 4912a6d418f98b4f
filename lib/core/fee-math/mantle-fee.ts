import type { L1FeeParams } from '../types'

/**
 * Mantle's fees beside gas since Arsia (2026-04-22), wei of MNT, its native token. Pure. Sources:
 * mantle-xyz/op-geth @ 11fa8109 `core/types/rollup_cost.go` (NewL1CostFuncArsia, newOperatorCostFunc) and
 * mantlenetworkio/mantle-v2 @ feb2a588 `packages/contracts-bedrock/src/L2/GasPriceOracle.sol`.
 */

export type MantleParams = Extract<L1FeeParams, { rule: 'mantle' }>

/**
 * The L1 data fee in MNT: the OP-stack Fjord fee (ETH wei, already floored: fjordL1Cost, fjordL1Fee, the node's for
 * a signed transaction, or fjordL1FeeUpperBound, the bound of a size, of lib/core/fee-math/l1-fee.ts)
 * × tokenRatio. The node multiplies after the Fjord division (NewL1CostFuncArsia), and reads tokenRatio
 * again for every transaction: an operator's setTokenRatio changes it within a block.
 * @example mantleL1DataFee(3_203_000n, p) // 3_203_000_000_000n with tokenRatio 1e6
 */
export function mantleL1DataFee(fjordFee: bigint, p: MantleParams): bigint {
  return fjordFee * BigInt(p.tokenRatio)
}

/**
 * The operator fee in MNT (no tokenRatio): `gas × operatorFeeScalar × 100 + operatorFeeConstant`
 * (newOperatorCostFunc; GasPriceOracle.getOperatorFee). The node charges it up front on the gas limit and refunds
 * it down to the gas used, so `gas` is the gas limit for what a wallet must hold.
 */
export function mantleOperatorFee(gas: bigint, p: MantleParams): bigint {
  return gas * BigInt(p.operatorFeeScalar) * 100n + BigInt(p.operatorFeeConstant)
}
