import type { LineaPricing } from '../types'

/**
 * Linea prices a transaction's L1 data into its priority fee: the sequencer takes a transaction only when
 * its tip covers `margin × (variableCost × compressedSize / gas + fixedCost)` per gas. Pure, integer wei.
 * Sources: Consensys/linea-monorepo @ cb180134, `linea-besu/plugins/linea-sequencer/sequencer/src/main/java/
 * net/consensys/linea/` (below: `P/`).
 */

const WEI_PER_KWEI = 1_000n
/** Version byte, then three uint32 fields (P/extradata/LineaExtraDataHandler.java, Version1Consumer). */
const V1_BYTES = 1 + 3 * 4

/**
 * The pricing a Linea block header carries in its extraData, version 1: byte 0 is 0x01, then FIXED_COST,
 * VARIABLE_COST (per compressed byte) and ETH_GAS_PRICE (the node's minimum gas price), each a big-endian
 * uint32 in kwei (P/extradata/LineaExtraDataHandler.java). As the sequencer's handler does, only the version
 * byte and the first 13 bytes are read: the sequencer writes 32 bytes (the fields, then zeros; coordinator
 * MinerExtraDataV1Test), and blocks of the Clique era carried the same 32 bytes as their vanity before the seal.
 * @returns the three amounts in wei (decimal strings), or null for an extraData of another version or too short
 * @example parseLineaExtraData('0x0100007530000f42400000a3b0' + '00'.repeat(19))
 * // { fixedCostWei: '30000000', variableCostWei: '1000000000', ethGasPriceWei: '41904000' }
 */
export function parseLineaExtraData(extraData: string): LineaPricing | null {
  if (!/^0x(?:[0-9a-fA-F]{2})*$/.test(extraData) || extraData.length < 2 + 2 * V1_BYTES) return null
  if (extraData.slice(2, 4) !== '01') return null
  const field = (i: number) => (BigInt(`0x${extraData.slice(4 + 8 * i, 12 + 8 * i)}`) * WEI_PER_KWEI).toString()
  return { fixedCostWei: field(0), variableCostWei: field(1), ethGasPriceWei: field(2) }
}

/** Linea LZSS adds its 3-byte header; an input it cannot shrink is stored raw with that header (Consensys/compress lzss). */
const LZSS_HEADER_BYTES = 3
/** The compressor's input is the 20-byte sender ‖ the unsigned signing RLP (P/utils/TxEncodingUtils.java encodeForCompressor). */
const SENDER_BYTES = 20

/**
 * An upper bound on the compressed size Linea's sequencer charges for (bytes), from the unsigned serialized
 * transaction's size alone: `ceil(8·(L + 20 + 3) / 254) · 32`. The sequencer compresses sender ‖ unsigned RLP
 * and counts at most its raw length plus the LZSS header (prover/lib/compressor/blob/v1/blob_maker.go
 * RawCompressedSize), packed into 254-bit field elements of 32 bytes (prover/lib/compressor/blob/encode/
 * encode.go PackAlignSize, NoTerminalSymbol).
 * @example lineaCompressedSizeBound(51) // 96: a plain EIP-1559 transfer
 */
export function lineaCompressedSizeBound(unsignedTxBytes: number): number {
  const bits = 8 * (unsignedTxBytes + SENDER_BYTES + LZSS_HEADER_BYTES)
  return Math.ceil(bits / 254) * 32
}

/** Margins of Linea mainnet's sequencer profile, ‰ (linea-besu/package/linea-besu/profiles/advanced-mainnet.toml). */
export const LINEA_MARGIN_PERMILLE = {
  /** `linea_estimateGas`'s tip (plugin-linea-estimate-gas-min-margin). */
  estimateGas: 1200,
  /** Block building (plugin-linea-min-margin). */
  blockBuilding: 1000,
  /** Txpool admission (plugin-linea-tx-pool-min-margin). */
  txPool: 800,
} as const

/**
 * The priority fee per gas (wei) Linea's sequencer finds profitable for a transaction:
 * `trunc(margin × (floor(variableCost × compressedSize / gas) + fixedCost))`
 * (P/bl/TransactionProfitabilityCalculator.java profitablePriorityFeePerGas: Java long division, then a double
 * margin truncated to an integer). Computed exactly as `floor(inner × marginPermille / 1000)`, which equals
 * Java's double product for every inner below 2^53 / margin (its fraction is a multiple of 1/1000, far from an
 * integer next to the double's error).
 * `gas`: the gas the sequencer counts (linea_estimateGas: the estimate; the txpool and block building: the gas limit).
 * @example lineaProfitablePriorityFee({ params, gas: 21_000n, compressedSize: 96 }) // 41_485_713n on 2026-01 mainnet
 */
export function lineaProfitablePriorityFee(p: {
  params: LineaPricing
  gas: bigint
  compressedSize: number
  marginPermille?: number
}): bigint {
  if (p.gas <= 0n) throw new RangeError('gas must be positive')
  const inner = (BigInt(p.params.variableCostWei) * BigInt(p.compressedSize)) / p.gas + BigInt(p.params.fixedCostWei)
  return (inner * BigInt(p.marginPermille ?? LINEA_MARGIN_PERMILLE.estimateGas)) / 1000n
}

/**
 * The lowest priority fee per gas (wei) a level should suggest on Linea for a transaction: at least the
 * profitable tip (lineaProfitablePriorityFee), and at least what lifts the price to the node's minimum gas price
 * (ETH_GAS_PRICE − base fee: LineaExtraDataHandler sets it with `miner_setMinGasPrice`, and Besu's block building
 * skips a transaction whose effective gas price is below it: hyperledger/besu PriceTransactionSelector), never
 * below 0.
 * `baseFee`: the base fee the transaction is priced against, wei (the next block's, as linea_estimateGas uses).
 */
export function lineaPriorityFeeFloor(p: {
  params: LineaPricing
  gas: bigint
  compressedSize: number
  baseFee: bigint
  marginPermille?: number
}): bigint {
  const profitable = lineaProfitablePriorityFee(p)
  const toMinGasPrice = BigInt(p.params.ethGasPriceWei) - p.baseFee
  const floor = profitable > toMinGasPrice ? profitable : toMinGasPrice
  return floor > 0n ? floor : 0n
}
