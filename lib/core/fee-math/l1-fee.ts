import { LibZip } from 'solady'
import type { L1FeeParams } from '../types'

/**
 * The L1 part of an L2 transaction's cost, wei of the chain's native token, from the parameters the
 * chain's predeploys report at the head (read with the block: lib/upstream/read-l1-fee-params.ts).
 * Pure: the formulas are the contracts' own, so the service answers what the chain will charge.
 */

/** Bytes a signature adds to an unsigned transaction, as OP-stack's GasPriceOracle assumes (`+ 68`). */
export const SIGNATURE_BYTES = 68

// OP-stack Fjord (ethereum-optimism/optimism contracts-bedrock src/L2/GasPriceOracle.sol, unchanged
// through Jovian, version 1.6.0): the Brotli size a FastLZ size stands for, by linear regression
const COST_INTERCEPT = -42_585_600n
const COST_FASTLZ_COEF = 836_500n
const MIN_TRANSACTION_SIZE = 100n
const DECIMALS_SQUARED = 10n ** 12n

type OpStackParams = Extract<L1FeeParams, { rule: 'op-stack' }>
type ArbitrumParams = Extract<L1FeeParams, { rule: 'arbitrum' }>

/** GasPriceOracle._fjordL1Cost: the L1 fee of a transaction whose FastLZ size (signature included) is `fastLzSize` bytes. */
export function fjordL1Cost(fastLzSize: bigint, p: OpStackParams): bigint {
  let estimated = COST_INTERCEPT + COST_FASTLZ_COEF * fastLzSize
  if (estimated < MIN_TRANSACTION_SIZE * 1_000_000n) estimated = MIN_TRANSACTION_SIZE * 1_000_000n
  const feeScaled = BigInt(p.baseFeeScalar) * 16n * BigInt(p.l1BaseFee) + BigInt(p.blobBaseFeeScalar) * BigInt(p.blobBaseFee)
  return (estimated * feeScaled) / DECIMALS_SQUARED
}

/**
 * GasPriceOracle.getL1FeeUpperBound(unsignedTxSize): the L1 fee of any transaction of that unsigned
 * size, bounded by FastLZ's practical worst case (`size + size / 255 + 16` after adding 68 bytes for
 * the signature; the contract's comment: it covers 99.99% of transactions).
 */
export function opStackL1FeeUpperBound(unsignedTxSize: number, p: OpStackParams): bigint {
  const txSize = BigInt(unsignedTxSize) + BigInt(SIGNATURE_BYTES)
  return fjordL1Cost(txSize + txSize / 255n + 16n, p)
}

/** FastLZ-compressed length of `data` (hex), as solady's LibZip.flzCompress, which GasPriceOracle uses, compresses it. */
export function flzCompressedLength(data: `0x${string}`): number {
  return (LibZip.flzCompress(data).length - 2) / 2
}

/** GasPriceOracle.getL1Fee(unsignedTx): the L1 fee of that transaction (its unsigned serialization, hex). */
export function opStackL1Fee(unsignedTx: `0x${string}`, p: OpStackParams): bigint {
  return fjordL1Cost(BigInt(flzCompressedLength(unsignedTx) + SIGNATURE_BYTES), p)
}

const MAX_UINT256 = (1n << 256n) - 1n

/**
 * GasPriceOracle.getOperatorFee(gas): 0 before Isthmus; Isthmus gas × scalar / 10^6 + constant
 * (saturating); Jovian gas × scalar × 100 + constant (specs protocol/isthmus/exec-engine.md and
 * protocol/jovian/exec-engine.md, "Operator Fee"). `gas` is the gas limit for what a wallet must hold.
 */
export function operatorFee(gas: bigint, p: OpStackParams): bigint {
  if (!p.isthmus) return 0n
  const scalar = BigInt(p.operatorFeeScalar)
  const constant = BigInt(p.operatorFeeConstant)
  if (p.jovian) return gas * scalar * 100n + constant
  const mul = gas * scalar > MAX_UINT256 ? MAX_UINT256 : gas * scalar
  const sum = mul / 1_000_000n + constant
  return sum > MAX_UINT256 ? MAX_UINT256 : sum
}

/**
 * Arbitrum's L1 component, wei: ArbOS charges L1 price per unit × 16 × the Brotli-compressed size of
 * the signed transaction (nitro arbos/l1pricing/l1pricing.go GetPosterInfo), through gas (poster gas =
 * that cost / the base fee). ArbGasInfo.getPricesInWei()[1] is the price per byte (price per unit × 16).
 * Without running Brotli this is an upper bound on the uncompressed signed size (unsigned + 68 bytes):
 * real transactions compress, so it overstates what is paid.
 */
export function arbitrumL1Fee(unsignedTxSize: number, p: ArbitrumParams): bigint {
  return BigInt(unsignedTxSize + SIGNATURE_BYTES) * BigInt(p.perL1CalldataByte)
}
