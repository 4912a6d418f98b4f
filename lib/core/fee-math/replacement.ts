import type { ChainFeePolicy } from '../chain-rules/chain-policy'
import { InvalidQueryError } from '../contract/errors'
import { windowGasPrices, windowLevels } from './chain-levels'
import { legacyGasPrices, type LevelGasPrices } from './gas-prices'
import { toFeeData } from '../fee-math/fee-data'
import type { FeeWindow, LevelEstimate, Urgency } from '../types'

/** Replacing a pending transaction (same sender and nonce): how much higher the fees must be, per client's pool, as data. */

/** Which transactions a rule applies to: regular (types 0, 1, 2, 4) or blob (type 3). */
export type PoolKind = 'regular' | 'blob'

export type ReplacementRule = {
  client: 'geth' | 'reth' | 'erigon' | 'nethermind' | 'bor' | 'op-geth' | 'anvil'
  kind: PoolKind
  /** How much each compared fee must rise, percent of the old one (0: any rise). */
  bumpPercent: bigint
  /** What the pool compares: every fee field, the max fee alone, or the effective gas price (not part of `minimum`, docs/api.md). */
  compares: 'each-fee' | 'max-fee' | 'effective-price'
  /** How old × (100 + bump) / 100 is rounded to the wei. */
  rounding: 'down' | 'up'
  /** Each compared fee must also be strictly above the old one (so a zero tip must become at least 1 wei). */
  strictlyAbove: boolean
  /** Where the rule and its constants are, in the client's repository. */
  source: string
}

/** The pools' replacement rules, read in each client's source (docs/api.md has the table and the commits read). */
export const REPLACEMENT_RULES: readonly ReplacementRule[] = [
  {
    client: 'geth',
    kind: 'regular',
    bumpPercent: 10n,
    compares: 'each-fee',
    rounding: 'down',
    strictlyAbove: true,
    source: 'ethereum/go-ethereum core/txpool/legacypool/legacypool.go DefaultConfig.PriceBump; core/txpool/legacypool/list.go (*list).Add',
  },
  {
    client: 'geth',
    kind: 'blob',
    bumpPercent: 100n,
    compares: 'each-fee',
    rounding: 'down',
    strictlyAbove: true,
    source:
      'ethereum/go-ethereum core/txpool/blobpool/config.go DefaultConfig.PriceBump; core/txpool/blobpool/blobpool.go (*BlobPool).validateTx',
  },
  {
    client: 'reth',
    kind: 'regular',
    bumpPercent: 10n,
    compares: 'each-fee',
    rounding: 'up',
    strictlyAbove: false,
    // the tip is not compared when either tip is 0
    source:
      'paradigmxyz/reth crates/transaction-pool/src/config.rs DEFAULT_PRICE_BUMP; crates/transaction-pool/src/validate/mod.rs is_underpriced',
  },
  {
    client: 'reth',
    kind: 'blob',
    bumpPercent: 100n,
    compares: 'each-fee',
    rounding: 'up',
    strictlyAbove: false,
    source:
      'paradigmxyz/reth crates/transaction-pool/src/config.rs REPLACE_BLOB_PRICE_BUMP; crates/transaction-pool/src/validate/mod.rs is_underpriced',
  },
  {
    client: 'erigon',
    kind: 'regular',
    bumpPercent: 10n,
    compares: 'each-fee',
    rounding: 'down',
    strictlyAbove: false,
    // a raised tip's threshold is also multiplied by the sender's pooled transaction count (not so for a cancel)
    source:
      'erigontech/erigon txnprovider/txpool/txpoolcfg/txpoolcfg.go DefaultConfig.PriceBump; txnprovider/txpool/pool.go (*TxPool).addLocked',
  },
  {
    client: 'erigon',
    kind: 'blob',
    bumpPercent: 100n,
    compares: 'each-fee',
    rounding: 'down',
    strictlyAbove: false,
    source:
      'erigontech/erigon txnprovider/txpool/txpoolcfg/txpoolcfg.go DefaultConfig.BlobPriceBump; txnprovider/txpool/pool.go (*TxPool).addLocked',
  },
  {
    client: 'nethermind',
    kind: 'regular',
    bumpPercent: 10n,
    compares: 'effective-price',
    rounding: 'down',
    strictlyAbove: true,
    // EIP-1559: GasBottleneck, the effective gas price at the pool's head base fee; an old fee of 0 is always replaced
    source: 'NethermindEth/nethermind src/Nethermind/Nethermind.TxPool/Comparison/CompareReplacedTxByFee.cs PartOfFeeRequiredToIncrease',
  },
  {
    client: 'nethermind',
    kind: 'blob',
    bumpPercent: 100n,
    compares: 'each-fee',
    rounding: 'down',
    strictlyAbove: false,
    source: 'NethermindEth/nethermind src/Nethermind/Nethermind.TxPool/Comparison/CompareReplacedBlobTx.cs',
  },
  {
    client: 'bor',
    kind: 'regular',
    bumpPercent: 10n,
    compares: 'each-fee',
    rounding: 'down',
    strictlyAbove: true,
    // geth's rule; no blob pool (bor eth/backend.go)
    source: '0xPolygon/bor core/txpool/legacypool/legacypool.go DefaultConfig.PriceBump; core/txpool/legacypool/list.go (*list).Add',
  },
  {
    client: 'op-geth',
    kind: 'regular',
    bumpPercent: 10n,
    compares: 'each-fee',
    rounding: 'down',
    strictlyAbove: true,
    // geth's rule; blob transactions are refused on OP chains (op-geth core/txpool/validation.go)
    source:
      'ethereum-optimism/op-geth core/txpool/legacypool/legacypool.go DefaultConfig.PriceBump; core/txpool/legacypool/list.go (*list).Add',
  },
  {
    client: 'anvil',
    kind: 'regular',
    bumpPercent: 0n,
    compares: 'max-fee',
    rounding: 'down',
    strictlyAbove: true,
    // also PendingTransactions::add_transaction: only a higher max fee, the tip is not compared
    source: 'foundry-rs/foundry crates/anvil/src/eth/pool/transactions.rs ReadyTransactions::replaced_transactions',
  },
  {
    client: 'anvil',
    kind: 'blob',
    bumpPercent: 0n,
    compares: 'max-fee',
    rounding: 'down',
    strictlyAbove: true,
    // the same test for every transaction type: the blob fee is not compared
    source: 'foundry-rs/foundry crates/anvil/src/eth/pool/transactions.rs ReadyTransactions::replaced_transactions',
  },
]

/** The largest amount a fee field can hold (a 256-bit unsigned integer), wei. */
export const MAX_UINT256 = 2n ** 256n - 1n

/** A pending transaction's fees, wei: an EIP-1559 (type 2) transaction, a blob (type 3) one, or a legacy gasPrice. */
export type TransactionFees =
  | { type: 'eip1559'; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
  | { type: 'blob'; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint; maxFeePerBlobGas: bigint }
  | { type: 'legacy'; gasPrice: bigint }

type FeeField = 'maxFeePerGas' | 'maxPriorityFeePerGas' | 'maxFeePerBlobGas' | 'gasPrice'

/** The fee fields a rule compares. A legacy gasPrice is a max fee (and a tip): every rule compares it. */
function compared(rule: ReplacementRule, field: FeeField): boolean {
  if (rule.compares === 'each-fee') return true
  if (rule.compares === 'max-fee') return field === 'maxFeePerGas' || field === 'gasPrice'
  return false
}

/** The least new value of one fee that a rule accepts, wei. */
export function ruleThreshold(rule: ReplacementRule, old: bigint): bigint {
  const scaled = old * (100n + rule.bumpPercent)
  const bumped = rule.rounding === 'up' ? (scaled + 99n) / 100n : scaled / 100n
  return rule.strictlyAbove && bumped <= old ? old + 1n : bumped
}

/** The least new value of one fee that every rule for its kind of transaction accepts, wei. */
function leastAccepted(kind: PoolKind, field: FeeField, old: bigint, rules: readonly ReplacementRule[]): bigint {
  let least = old
  for (const rule of rules) if (rule.kind === kind && compared(rule, field)) least = max(least, ruleThreshold(rule, old))
  if (least > MAX_UINT256)
    throw new InvalidQueryError(field, 'is too high to be replaced: the replacement would need more than 2^256 − 1 wei.')
  return least
}

const max = (a: bigint, b: bigint) => (a > b ? a : b)
const min = (a: bigint, b: bigint) => (a < b ? a : b)

/**
 * The lowest replacement every pool of REPLACEMENT_RULES takes, field by field, wei.
 * @throws InvalidQueryError when a fee is too high to be bumped within 256 bits
 */
export function minimumReplacement(fees: TransactionFees, rules: readonly ReplacementRule[] = REPLACEMENT_RULES): TransactionFees {
  switch (fees.type) {
    case 'legacy':
      return { type: 'legacy', gasPrice: leastAccepted('regular', 'gasPrice', fees.gasPrice, rules) }
    case 'eip1559':
      return {
        type: 'eip1559',
        maxFeePerGas: leastAccepted('regular', 'maxFeePerGas', fees.maxFeePerGas, rules),
        maxPriorityFeePerGas: leastAccepted('regular', 'maxPriorityFeePerGas', fees.maxPriorityFeePerGas, rules),
      }
    case 'blob':
      return {
        type: 'blob',
        maxFeePerGas: leastAccepted('blob', 'maxFeePerGas', fees.maxFeePerGas, rules),
        maxPriorityFeePerGas: leastAccepted('blob', 'maxPriorityFeePerGas', fees.maxPriorityFeePerGas, rules),
        maxFeePerBlobGas: leastAccepted('blob', 'maxFeePerBlobGas', fees.maxFeePerBlobGas, rules),
      }
  }
}

/** What a level suggests now, wei: EIP-1559 fees (absent on a chain without EIP-1559) and a legacy gas price. */
export type LevelSuggestion = {
  fees?: LevelEstimate
  gasPrice: bigint
  /** The level's maxFeePerBlobGas (GET blobFees), wei, where the chain has blob fees. */
  maxFeePerBlobGas?: bigint
}

/**
 * Each level's suggestion for a window, wei, as suggestedGasFees and gasPrices answer them.
 * @throws NoPriceDataError when a chain without EIP-1559 has no priced transaction in the window
 */
export function levelSuggestions(window: FeeWindow, policy: ChainFeePolicy): Record<Urgency, LevelSuggestion> {
  const data = toFeeData(window)
  if (window.legacy) {
    const prices = legacyGasPrices(data, window.chainId, policy)
    return { low: { gasPrice: prices.low }, medium: { gasPrice: prices.medium }, high: { gasPrice: prices.high } }
  }
  const levels = windowLevels(window, policy)
  const prices: LevelGasPrices = windowGasPrices(window, policy, levels)
  const level = (u: Urgency): LevelSuggestion => ({ fees: levels[u], gasPrice: prices[u] })
  return { low: level('low'), medium: level('medium'), high: level('high') }
}

/** The minimum and one replacement per level, wei. */
export type ReplacementFees = Record<'minimum' | Urgency, TransactionFees>

/** The replacement fees: `minimum`, and per level the larger of it and the level's suggestion, field by field. */
export function replacementFees(fees: TransactionFees, suggestions: Record<Urgency, LevelSuggestion>): ReplacementFees {
  const minimum = minimumReplacement(fees)
  const at = (s: LevelSuggestion): TransactionFees => {
    if (minimum.type === 'legacy') return { type: 'legacy', gasPrice: max(minimum.gasPrice, s.gasPrice) }
    const maxFeePerGas = max(minimum.maxFeePerGas, s.fees?.maxFeePerGas ?? 0n)
    // never above the max fee: a node refuses such a transaction (TipAboveFeeCap)
    const maxPriorityFeePerGas = min(max(minimum.maxPriorityFeePerGas, s.fees?.maxPriorityFeePerGas ?? 0n), maxFeePerGas)
    return minimum.type === 'blob'
      ? { type: 'blob', maxFeePerGas, maxPriorityFeePerGas, maxFeePerBlobGas: max(minimum.maxFeePerBlobGas, s.maxFeePerBlobGas ?? 0n) }
      : { type: 'eip1559', maxFeePerGas, maxPriorityFeePerGas }
  }
  return { minimum, low: at(suggestions.low), medium: at(suggestions.medium), high: at(suggestions.high) }
}
