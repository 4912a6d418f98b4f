import { InvalidQueryError } from '../contract/errors'
import { levelHorizon } from './estimator'
import { arbitrumL1Fee, operatorFee, opStackL1Fee, opStackL1FeeUpperBound } from './l1-fee'
import type { LevelSuggestion } from './replacement'
import type { FeeWindow, L1FeeRule, Urgency } from '../types'
import { mulDivCeil, PPM } from '../units'

/** What a transaction costs per level, wei: its gas at the level's fees plus the chain's L1 and operator fees. Pure. */

/** What the query asks: the gas limit, and the transaction's unsigned size or the transaction itself. */
export type TransactionCostQuery = {
  gas: bigint
  /** The unsigned serialized transaction's size, bytes (absent with `tx`, and when neither was given). */
  txBytes?: number
  /** The unsigned serialized transaction, hex. */
  tx?: `0x${string}`
}

/** The unsigned size assumed without `txBytes` or `tx`: a typical EIP-1559 transfer (viem serializeTransaction). */
export const DEFAULT_TX_BYTES = 51

/** The largest transaction size the query takes, bytes: go-ethereum's txpool txMaxSize (4 × 32 KiB). */
export const MAX_TX_BYTES = 128 * 1024

/** Every transaction pays at least this much gas (the intrinsic cost, Ethereum's yellow paper G_transaction). */
export const MIN_TX_GAS = 21_000n

/** How much an L1 fee can grow per L1 block, ppm: EIP-1559's 1/8, which also bounds the blob base fee's rise (EIP-4844). */
const L1_RISE_PPM = 125_000n
/** Ethereum's slot, ms: an L2's L1 fee parameters change at most once per L1 block. */
const L1_SLOT_MS = 12_000

/** The L1 fee a level must hold for (wei): the fee now, grown by the largest rise for every L1 block over its horizon. */
export function l1FeeCap(fee: bigint, level: Urgency, blockIntervalMs: number): bigint {
  const horizonMs = levelHorizon(level, blockIntervalMs) * blockIntervalMs
  const l1Blocks = Math.floor(horizonMs / L1_SLOT_MS) + 1
  let v = fee
  for (let i = 0; i < l1Blocks; i++) v = mulDivCeil(v, PPM + L1_RISE_PPM, PPM)
  return v
}

/** What the chain charges beside gas for the query's transaction, wei; null where it charges one we do not compute. */
function beyondGas(
  window: FeeWindow,
  query: TransactionCostQuery,
  txBytes: number,
  chain: TransactionCostChain,
): { l1DataFee: bigint | null; operatorFee: bigint | null } {
  const p = window.l1Fee
  // a chain that charges one, whose window lacks it, is not a chain without one
  if (p === undefined)
    return chain.unknownL1Fee || chain.l1FeeRule ? { l1DataFee: null, operatorFee: null } : { l1DataFee: 0n, operatorFee: 0n }
  if (p.rule === 'unavailable') return { l1DataFee: null, operatorFee: null }
  if (p.rule === 'arbitrum') return { l1DataFee: arbitrumL1Fee(txBytes, p), operatorFee: 0n }
  return {
    l1DataFee: query.tx ? opStackL1Fee(query.tx, p) : opStackL1FeeUpperBound(txBytes, p),
    operatorFee: operatorFee(query.gas, p),
  }
}

/** What transactionCost needs of the chain besides its window. */
export type TransactionCostChain = {
  /** The chain's per-transaction gas cap (its policy's maxTransactionGas). */
  maxTransactionGas?: bigint
  /** The L1 fee the chain charges, whose parameters its reads carry. */
  l1FeeRule?: L1FeeRule
  /** The chain may charge an L1 fee the service does not compute: l1DataFee null. */
  unknownL1Fee?: boolean
}

/** The largest gas a transaction of the chain can use: the chain's per-transaction cap (EIP-7825, ArbOS 50) or the head's gas limit. */
export function maxTransactionGas(window: FeeWindow, policyCap: bigint | undefined): bigint | undefined {
  const limit = window.headGasLimit === undefined ? undefined : BigInt(window.headGasLimit)
  if (policyCap === undefined) return limit
  return limit === undefined || policyCap < limit ? policyCap : limit
}

/** A transaction's whole cost per level, wei of the native token (GET transactionCost's body: lib/core/contract/report.ts). */
export type TransactionCost = {
  blockNumber: number
  gas: bigint
  /** The unsigned size the L1 fee is for, bytes. */
  txBytes: number
  /** null where the chain charges one the service does not compute. */
  l1DataFee: bigint | null
  operatorFee: bigint | null
  levels: Record<Urgency, { fee: bigint; maxFee: bigint }>
}

/**
 * What a transaction costs per level: `fee`, what it will most likely cost, and `maxFee`, what a wallet must hold.
 * `suggestions`: the levels of the same window (levelSuggestions).
 * @throws InvalidQueryError when `gas` is above what one transaction of the chain can use
 */
export function transactionCost(
  window: FeeWindow,
  suggestions: Record<Urgency, LevelSuggestion>,
  query: TransactionCostQuery,
  chain: TransactionCostChain,
): TransactionCost {
  const cap = maxTransactionGas(window, chain.maxTransactionGas)
  if (cap !== undefined && query.gas > cap) {
    throw new InvalidQueryError('gas', `is above ${cap}, the most gas one transaction can use on this chain.`)
  }
  const txBytes = query.tx ? (query.tx.length - 2) / 2 : (query.txBytes ?? DEFAULT_TX_BYTES)
  const next = BigInt(window.nextBaseFeePerGas)
  const { l1DataFee, operatorFee: opFee } = beyondGas(window, query, txBytes, chain)
  // Arbitrum charges its L1 component as poster gas (its cost ÷ the base fee) inside the gas limit,
  // and the node wants the balance for gas limit × maxFeePerGas: the L1 part is held at the max fee
  const heldAtMaxFee = window.l1Fee?.rule === 'arbitrum' && next > 0n
  const level = (u: Urgency) => {
    const s = suggestions[u]
    const likelyPrice = s.fees ? next + s.fees.maxPriorityFeePerGas : s.gasPrice
    const maxPrice = s.fees ? s.fees.maxFeePerGas : s.gasPrice
    const extra = (opFee ?? 0n) + (l1DataFee ?? 0n)
    const l1Cap = l1DataFee === null ? 0n : l1FeeCap(l1DataFee, u, window.blockIntervalMs)
    const extraMax = (opFee ?? 0n) + (heldAtMaxFee ? mulDivCeil(l1Cap, maxPrice, next) : l1Cap)
    return { fee: query.gas * (likelyPrice < maxPrice ? likelyPrice : maxPrice) + extra, maxFee: query.gas * maxPrice + extraMax }
  }
  return {
    blockNumber: window.headNumber,
    gas: query.gas,
    txBytes,
    l1DataFee,
    operatorFee: opFee,
    levels: { low: level('low'), medium: level('medium'), high: level('high') },
  }
}
