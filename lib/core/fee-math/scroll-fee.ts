import type { L1FeeParams } from '../types'

/**
 * Scroll's rollup fee since Galileo (2025-12-16), wei: charged on the zstd-compressed signed transaction.
 * Pure. Sources: scroll-tech/scroll-revm @ a1ac004a `src/l1block.rs` calculate_tx_l1_cost_galileo (the node),
 * scroll-tech/scroll-contracts @ dfbd6615 `src/L2/predeploys/L1GasPriceOracle.sol` _getL1FeeGalileo.
 */

export type ScrollParams = Extract<L1FeeParams, { rule: 'scroll' }>

/** The scalars are scaled by 1e9 (l1block.rs TX_L1_FEE_PRECISION). */
const PRECISION = 1_000_000_000n
const MAX_U256 = (1n << 256n) - 1n
/** The node caps the fee at u64::MAX (l1block.rs calculate_tx_l1_cost: `l1_cost.min(U64_MAX)`). */
const MAX_U64 = (1n << 64n) - 1n
/** A signature adds at most this many bytes to an unsigned transaction (yParity, r, s and a longer list header). */
const SIGNATURE_BYTES = 68

const saturating = (v: bigint) => (v > MAX_U256 ? MAX_U256 : v)

/**
 * The Galileo rollup fee of a transaction whose compressed size is `compressedSize` bytes:
 * `min(floor((base + floor(base·cs / penaltyFactor)) / 1e9), 2^64 − 1)`, where
 * `base = (commitScalar·l1BaseFee + blobScalar·l1BlobBaseFee)·cs`; a penalty factor of 0 counts as 1, as the
 * node sanitizes it. The node's cs is `min(len(zstd(signed tx)), len(signed tx))`.
 * @example scrollGalileoL1Fee(50, p) // 171_557_471_810n with l1block.rs test_rollup_fee_galileo's parameters
 */
export function scrollGalileoL1Fee(compressedSize: number | bigint, p: ScrollParams): bigint {
  const cs = BigInt(compressedSize)
  const penaltyFactor = BigInt(p.penaltyFactor) === 0n ? 1n : BigInt(p.penaltyFactor)
  const perByte = saturating(
    saturating(BigInt(p.commitScalar) * BigInt(p.l1BaseFee)) + saturating(BigInt(p.blobScalar) * BigInt(p.l1BlobBaseFee)),
  )
  const base = saturating(perByte * cs)
  const penalty = saturating(base * cs) / penaltyFactor
  const fee = saturating(base + penalty) / PRECISION
  return fee < MAX_U64 ? fee : MAX_U64
}

/**
 * An upper bound on the Galileo fee of any transaction whose unsigned serialization is `unsignedTxSize` bytes:
 * the fee at `cs = size + 68`. The fee counts at most the signed transaction's raw length (cs = min(zstd, raw)),
 * and a signature adds at most 68 bytes, so no transaction of that size pays more.
 */
export function scrollL1FeeUpperBound(unsignedTxSize: number, p: ScrollParams): bigint {
  return scrollGalileoL1Fee(unsignedTxSize + SIGNATURE_BYTES, p)
}
