import { bytesToHex } from '@noble/hashes/utils'
import { LibZip } from 'solady'
import type { L1FeeParams } from '../types'
import { placeholderSigned } from './placeholder-signed'
import { mantleL1DataFee, mantleOperatorFee } from './mantle-fee'
import { scrollL1FeeUpperBound } from './scroll-fee'

/**
 * The L1 part of an L2 transaction's cost, wei of the chain's native token, by the contracts' own formulas from the
 * parameters read at the head (lib/upstream/read-l1-fee-params.ts). Pure. Use l1DataFeeUpperBound, l1DataFee, operatorFee.
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
/** The Fjord inputs, which OP-stack's and Mantle's GasPriceOracle share. */
type FjordParams = Pick<OpStackParams, 'l1BaseFee' | 'blobBaseFee' | 'baseFeeScalar' | 'blobBaseFeeScalar'>
/** The parameters of a chain that charges a data fee: every rule but `unavailable`. */
export type ChargedL1FeeParams = Exclude<L1FeeParams, { rule: 'unavailable' }>

/** GasPriceOracle._fjordL1Cost: the L1 fee of a transaction whose FastLZ size (signature included) is `fastLzSize` bytes. */
export function fjordL1Cost(fastLzSize: bigint, p: FjordParams): bigint {
  let estimated = COST_INTERCEPT + COST_FASTLZ_COEF * fastLzSize
  if (estimated < MIN_TRANSACTION_SIZE * 1_000_000n) estimated = MIN_TRANSACTION_SIZE * 1_000_000n
  const feeScaled = BigInt(p.baseFeeScalar) * 16n * BigInt(p.l1BaseFee) + BigInt(p.blobBaseFeeScalar) * BigInt(p.blobBaseFee)
  return (estimated * feeScaled) / DECIMALS_SQUARED
}

/**
 * The most the Fjord fee can be for `unsignedTxSize` unsigned bytes: GasPriceOracle.getL1FeeUpperBound, raised to
 * FastLZ's worst case where larger (LibZip's flzCompress writes at most n + ceil(n / 32) bytes for n: docs/api.md).
 */
export function fjordL1FeeUpperBound(unsignedTxSize: number, p: FjordParams): bigint {
  const txSize = BigInt(unsignedTxSize) + BigInt(SIGNATURE_BYTES)
  const contractBound = txSize + txSize / 255n + 16n
  const worstCase = txSize + (txSize + 31n) / 32n
  return fjordL1Cost(contractBound > worstCase ? contractBound : worstCase, p)
}

/** FastLZ-compressed length of `data` (hex), as solady's LibZip.flzCompress, which GasPriceOracle uses, compresses it. */
export function flzCompressedLength(data: `0x${string}`): number {
  return (LibZip.flzCompress(data).length - 2) / 2
}

/**
 * The Fjord fee the node charges `unsignedTx` once signed: at the FastLZ size of the signed bytes (op-geth
 * rollup_cost.go), signed with a placeholder that compresses as a real signature does (./placeholder-signed.ts).
 * @throws InvalidQueryError ('tx') when the hex is not an unsigned transaction
 */
export function fjordL1Fee(unsignedTx: `0x${string}`, p: FjordParams): bigint {
  return fjordL1Cost(BigInt(flzCompressedLength(`0x${bytesToHex(placeholderSigned(unsignedTx))}`)), p)
}

const MAX_UINT256 = (1n << 256n) - 1n

/**
 * GasPriceOracle.getOperatorFee(gas): 0 before Isthmus; Isthmus gas × scalar / 10^6 + constant
 * (saturating); Jovian gas × scalar × 100 + constant (specs protocol/isthmus/exec-engine.md and
 * protocol/jovian/exec-engine.md, "Operator Fee"). `gas` is the gas limit for what a wallet must hold.
 */
export function opStackOperatorFee(gas: bigint, p: OpStackParams): bigint {
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

/** The most the chain charges as data fee for any transaction of `unsignedTxSize` unsigned bytes, native wei (OP-stack: getL1FeeUpperBound). */
export function l1DataFeeUpperBound(unsignedTxSize: number, p: ChargedL1FeeParams): bigint {
  switch (p.rule) {
    case 'op-stack':
      return fjordL1FeeUpperBound(unsignedTxSize, p)
    case 'mantle':
      return mantleL1DataFee(fjordL1FeeUpperBound(unsignedTxSize, p), p)
    case 'scroll':
      return scrollL1FeeUpperBound(unsignedTxSize, p)
    case 'arbitrum':
      return arbitrumL1Fee(unsignedTxSize, p)
  }
}

/**
 * The data fee of one unsigned transaction (hex), native wei: exact on OP-stack and Mantle (fjordL1Fee, at the signed
 * size, as the node charges it); on Scroll and Arbitrum, whose compressors are not pure code here, the bound of its size.
 */
export function l1DataFee(unsignedTx: `0x${string}`, p: ChargedL1FeeParams): bigint {
  switch (p.rule) {
    case 'op-stack':
      return fjordL1Fee(unsignedTx, p)
    case 'mantle':
      return mantleL1DataFee(fjordL1Fee(unsignedTx, p), p)
    case 'scroll':
    case 'arbitrum':
      return l1DataFeeUpperBound((unsignedTx.length - 2) / 2, p)
  }
}

/**
 * The operator fee of a transaction of gas limit `gas`, wei of the chain's native token: OP-stack's by fork
 * (opStackOperatorFee), Mantle's since Arsia (mantleOperatorFee, in MNT); Scroll and Arbitrum charge none.
 */
export function operatorFee(gas: bigint, p: ChargedL1FeeParams): bigint {
  switch (p.rule) {
    case 'op-stack':
      return opStackOperatorFee(gas, p)
    case 'mantle':
      return mantleOperatorFee(gas, p)
    case 'scroll':
    case 'arbitrum':
      return 0n
  }
}
