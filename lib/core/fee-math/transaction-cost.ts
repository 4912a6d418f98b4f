import { InvalidQueryError } from '../contract/errors'
import { levelHorizon, LEVEL_SETTINGS } from './estimator'
import { pieceWaits } from './flashblocks'
import { l1DataFee, l1DataFeeUpperBound, operatorFee } from './l1-fee'
import { lineaCompressedSizeBound, lineaPriorityFeeFloor } from './linea-fee'
import type { LevelSuggestion } from './replacement'
import { scrollGalileoL1Fee } from './scroll-fee'
import type { FeeWindow, L1FeeRule, Urgency } from '../types'
import type { Lane } from './chain-levels'
import { mulDivCeil, PPM } from '../units'

/**
 * What a transaction costs per level, wei of the chain's native token: its gas at the level's fees (on Linea the tip
 * raised to what the sequencer takes for this transaction) plus the chain's L1 data and operator fees. Pure.
 */

/** What the query asks: the gas limit, and the transaction's unsigned size or the transaction itself. */
export type TransactionCostQuery = {
  gas: bigint
  /** The unsigned serialized transaction's size, bytes (absent with `tx`, and when neither was given). */
  txBytes?: number
  /** The unsigned serialized transaction, hex. */
  tx?: `0x${string}`
  /** Scroll: the size its node charges `tx` for, bytes (lib/runtime/zstd-scroll.ts): with it the fee is exact, without it the bound. */
  scrollCompressedSize?: number
  /** Which lane's levels price it (HyperEVM's `big`); absent: the chain's default. The chain's check is lib/fees'. */
  lane?: Lane
}

/** Whether l1DataFee is what the chain will charge (`exact`) or an amount it will not exceed (`upperBound`). */
export type L1DataFeeBasis = 'exact' | 'upperBound'

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

type BeyondGas = { l1DataFee: bigint | null; l1DataFeeBasis: L1DataFeeBasis | null; operatorFee: bigint | null }
const NOT_COMPUTED: BeyondGas = { l1DataFee: null, l1DataFeeBasis: null, operatorFee: null }
const NONE: BeyondGas = { l1DataFee: 0n, l1DataFeeBasis: 'exact', operatorFee: 0n }

/** What the chain charges beside gas, native wei; null where we do not compute it. Linea (the tip) and zkSync Era (gas) charge none. */
function beyondGas(window: FeeWindow, query: TransactionCostQuery, txBytes: number, chain: TransactionCostChain): BeyondGas {
  const p = window.l1Fee
  if (chain.l1FeeRule === 'linea') return NONE
  // a chain that charges one, whose window lacks it, is not a chain without one
  if (p === undefined) return chain.unknownL1Fee || chain.l1FeeRule ? NOT_COMPUTED : NONE
  if (p.rule === 'unavailable') return NOT_COMPUTED
  const opFee = operatorFee(query.gas, p)
  // Arbitrum (Brotli) has no contract to ask, so the signed size bounds it, also for `tx`
  if (p.rule === 'arbitrum') return { l1DataFee: l1DataFeeUpperBound(txBytes, p), l1DataFeeBasis: 'upperBound', operatorFee: opFee }
  if (p.rule === 'scroll') {
    const cs = query.tx ? query.scrollCompressedSize : undefined
    return cs === undefined
      ? { l1DataFee: l1DataFeeUpperBound(txBytes, p), l1DataFeeBasis: 'upperBound', operatorFee: opFee }
      : { l1DataFee: scrollGalileoL1Fee(cs, p), l1DataFeeBasis: 'exact', operatorFee: opFee }
  }
  // OP-stack and Mantle: the Fjord fee at the signed size of tx, as the node charges it, or the bound of txBytes
  return query.tx
    ? { l1DataFee: l1DataFee(query.tx, p), l1DataFeeBasis: 'exact', operatorFee: opFee }
    : { l1DataFee: l1DataFeeUpperBound(txBytes, p), l1DataFeeBasis: 'upperBound', operatorFee: opFee }
}

/** What transactionCost needs of the chain besides its window. */
export type TransactionCostChain = {
  /** The chain's per-transaction gas cap (its policy's maxTransactionGas). */
  maxTransactionGas?: bigint
  /** The L1 fee the chain charges, whose parameters its reads carry. */
  l1FeeRule?: L1FeeRule
  /** The chain may charge an L1 fee the service does not compute: l1DataFee null. */
  unknownL1Fee?: boolean
  /** The symbol of the token gas and every amount is paid in (viem's nativeCurrency: MNT on Mantle). */
  nativeToken?: string
  /** The chain charges the gas limit, not the gas used (Monad: its policy's rules.chargesGasLimit). */
  chargesGasLimit?: boolean
  /** The window's base fees are the node's price over the block's own (Sonic): the likely cost is at the head header's. */
  chargedAtHeaderBaseFee?: boolean
}

/** The largest gas a transaction of the chain can use: the chain's per-transaction cap (EIP-7825, ArbOS 50) or the head's gas limit. */
export function maxTransactionGas(window: FeeWindow, policyCap: bigint | undefined): bigint | undefined {
  const limit = window.headGasLimit === undefined ? undefined : BigInt(window.headGasLimit)
  if (policyCap === undefined) return limit
  return limit === undefined || policyCap < limit ? policyCap : limit
}

/** One level's cost, wei of the native token, and the fees per gas (wei) it assumes, which a wallet sends. */
export type LevelCost = {
  fee: bigint
  maxFee: bigint
  /** The level's tip; on Linea at least priorityFeeFloor; on a chain without EIP-1559 the level's gas price. */
  maxPriorityFeePerGas: bigint
  /** The level's max fee, raised by what the tip was raised; on a chain without EIP-1559 the level's gas price. */
  maxFeePerGas: bigint
  /** The level's waits, ms; on a flashblocks chain for a transaction of this gas limit (./flashblocks.ts pieceWaits). */
  minWaitTimeMs: number
  maxWaitTimeMs: number
}

/** A transaction's whole cost per level, wei of the native token (GET transactionCost's body: lib/core/contract/report.ts). */
export type TransactionCost = {
  blockNumber: number
  gas: bigint
  /** The unsigned size the L1 fee is for, bytes. */
  txBytes: number
  /** The token every amount is in (viem's symbol); null for a chain viem does not know. */
  nativeToken: string | null
  /** null where the chain charges one the service does not compute. */
  l1DataFee: bigint | null
  /** Whether l1DataFee is exact or an upper bound; null with l1DataFee. */
  l1DataFeeBasis: L1DataFeeBasis | null
  operatorFee: bigint | null
  /** Linea with its head's pricing: the lowest tip per gas its sequencer takes for this transaction, wei; else null. */
  priorityFeeFloor: bigint | null
  /** `limit` where the chain charges the whole gas limit (Monad): `gas` is then the limit the wallet signs; else absent. */
  gasCharged?: 'limit'
  levels: Record<Urgency, LevelCost>
}

/** Linea's lowest tip for the transaction, wei, at linea_estimateGas's margin; null without the head's extraData v1 pricing. */
function lineaTipFloor(window: FeeWindow, gas: bigint, txBytes: number): bigint | null {
  if (!window.lineaPricing) return null
  return lineaPriorityFeeFloor({
    params: window.lineaPricing,
    gas,
    compressedSize: lineaCompressedSizeBound(txBytes),
    baseFee: BigInt(window.nextBaseFeePerGas),
  })
}

/** A level's waits for a transaction of `gas`: in pieces on a flashblocks chain, else the level's own (a legacy chain's in blocks). */
function levelWaits(
  window: FeeWindow,
  s: LevelSuggestion,
  level: Urgency,
  gas: bigint,
): Pick<LevelCost, 'minWaitTimeMs' | 'maxWaitTimeMs'> {
  if (window.pending) return pieceWaits(window.pending, level, gas)
  if (s.fees) return { minWaitTimeMs: s.fees.minWaitTimeMs, maxWaitTimeMs: s.fees.maxWaitTimeMs }
  const { minWaitBlocks, maxWaitBlocks } = LEVEL_SETTINGS[level]
  return {
    minWaitTimeMs: Math.round(window.blockIntervalMs * minWaitBlocks),
    maxWaitTimeMs: Math.round(window.blockIntervalMs * maxWaitBlocks),
  }
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
  const charged = chain.chargedAtHeaderBaseFee && window.headBaseFeePerGas !== undefined ? BigInt(window.headBaseFeePerGas) : next
  const { l1DataFee, l1DataFeeBasis, operatorFee: opFee } = beyondGas(window, query, txBytes, chain)
  const floor = lineaTipFloor(window, query.gas, txBytes)
  // Arbitrum charges its L1 component as poster gas (its cost ÷ the base fee) inside the gas limit,
  // and the node wants the balance for gas limit × maxFeePerGas: the L1 part is held at the max fee
  const heldAtMaxFee = window.l1Fee?.rule === 'arbitrum' && next > 0n
  const level = (u: Urgency): LevelCost => {
    const s = suggestions[u]
    const levelTip = s.fees ? s.fees.maxPriorityFeePerGas : s.gasPrice
    const tip = s.fees && floor !== null && floor > levelTip ? floor : levelTip
    // the max fee keeps the level's headroom over the base fee
    const maxPrice = s.fees ? s.fees.maxFeePerGas + (tip - levelTip) : s.gasPrice
    const likelyPrice = s.fees ? charged + tip : s.gasPrice
    const extra = (opFee ?? 0n) + (l1DataFee ?? 0n)
    const l1Cap = l1DataFee === null ? 0n : l1FeeCap(l1DataFee, u, window.blockIntervalMs)
    const extraMax = (opFee ?? 0n) + (heldAtMaxFee ? mulDivCeil(l1Cap, maxPrice, next) : l1Cap)
    return {
      fee: query.gas * (likelyPrice < maxPrice ? likelyPrice : maxPrice) + extra,
      maxFee: query.gas * maxPrice + extraMax,
      maxPriorityFeePerGas: tip,
      maxFeePerGas: maxPrice,
      ...levelWaits(window, s, u, query.gas),
    }
  }
  return {
    blockNumber: window.headNumber,
    gas: query.gas,
    txBytes,
    nativeToken: chain.nativeToken ?? null,
    l1DataFee,
    l1DataFeeBasis,
    operatorFee: opFee,
    priorityFeeFloor: floor,
    ...(chain.chargesGasLimit ? { gasCharged: 'limit' as const } : {}),
    levels: { low: level('low'), medium: level('medium'), high: level('high') },
  }
}
