import { withLiveParams, type ChainFeePolicy } from '../chain-rules/chain-policy'
import { InvalidQueryError } from '../contract/errors'
import { estimateLevels } from './estimator'
import { gasPricesFromLevels, legacyGasPrices, type LevelGasPrices } from './gas-prices'
import { toFeeData } from '../fee-math/fee-data'
import type { FeeWindow, LevelEstimate, Urgency } from '../types'

/**
 * Replacing a pending transaction (speed-up or cancel: the same sender and nonce): how much higher its fees
 * must be for the common transaction pools to take the new one, as data, one row per client and pool, each
 * with the file and constant it comes from in that client's repository.
 */

/** Which transactions a rule applies to: regular (types 0, 1, 2, 4) or blob (type 3). */
export type PoolKind = 'regular' | 'blob'

export type ReplacementRule = {
  client: 'geth' | 'reth' | 'erigon' | 'nethermind' | 'bor' | 'op-geth' | 'anvil'
  kind: PoolKind
  /** How much each compared fee must rise, percent of the old one (0: any rise). */
  bumpPercent: bigint
  /**
   * What the pool compares: every fee field (max fee, max priority fee, and the blob max fee of a
   * blob transaction; a legacy gasPrice is both max fee and tip), the max fee alone, or the effective
   * gas price at the pool's head base fee, min(max fee, base fee + tip) (a quantity of the moment, not
   * of the fields: it is shown but not part of `minimum`, docs/api.md says what it means).
   */
  compares: 'each-fee' | 'max-fee' | 'effective-price'
  /** How old × (100 + bump) / 100 is rounded to the wei. */
  rounding: 'down' | 'up'
  /** Each compared fee must also be strictly above the old one (so a zero tip must become at least 1 wei). */
  strictlyAbove: boolean
  /** Where the rule and its constants are, in the client's repository. */
  source: string
}

/**
 * The pools' replacement rules, read in each client's source (docs/api.md has the table and the
 * commits read). `minimum` is the least fee that meets every rule that compares that fee.
 */
export const REPLACEMENT_RULES: readonly ReplacementRule[] = [
  {
    client: 'geth',
    kind: 'regular',
    bumpPercent: 10n,
    compares: 'each-fee',
    rounding: 'down',
    strictlyAbove: true,
    // go-ethereum core/txpool/legacypool/legacypool.go DefaultConfig.PriceBump = 10; the test in
    // core/txpool/legacypool/list.go (*list).Add: refused when old fee cap or tip ≥ the new one, or the
    // new one < old × (100 + PriceBump) / 100 (big.Int Div: rounded down)
    source: 'ethereum/go-ethereum core/txpool/legacypool/legacypool.go DefaultConfig.PriceBump; core/txpool/legacypool/list.go (*list).Add',
  },
  {
    client: 'geth',
    kind: 'blob',
    bumpPercent: 100n,
    compares: 'each-fee',
    rounding: 'down',
    strictlyAbove: true,
    // go-ethereum core/txpool/blobpool/config.go DefaultConfig.PriceBump = 100 ("either have patience or be
    // aggressive, no mushy ground"); the test in core/txpool/blobpool/blobpool.go (*BlobPool).validateTx:
    // fee cap, tip and blob fee cap each > old and ≥ old × (100 + PriceBump) / 100 (uint256 Div: rounded down)
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
    // reth crates/transaction-pool/src/config.rs DEFAULT_PRICE_BUMP = 10; the test in
    // crates/transaction-pool/src/validate/mod.rs ValidPoolTransaction::is_underpriced:
    // existing × (100 + bump) .div_ceil(100) (rounded UP); the tip is not compared when either tip is 0
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
    // reth crates/transaction-pool/src/config.rs REPLACE_BLOB_PRICE_BUMP = 100 (PriceBumpConfig::price_bump for EIP4844_TX_TYPE_ID)
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
    // erigon txnprovider/txpool/txpoolcfg/txpoolcfg.go DefaultConfig.PriceBump = 10; the test in
    // txnprovider/txpool/pool.go (*TxPool).addLocked: tip and fee cap ≥ old × (100 + PriceBump) / 100
    // (uint256 Div: rounded down); the tip threshold is multiplied by the sender's pooled transaction count
    // when the new value is higher than the old (not so for a speed-up of the same value or a cancel)
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
    // erigon txnprovider/txpool/txpoolcfg/txpoolcfg.go DefaultConfig.BlobPriceBump = 100: the blob fee cap,
    // the tip and the fee cap each ≥ old × 2
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
    // Nethermind src/Nethermind/Nethermind.TxPool/Comparison/CompareReplacedTxByFee.cs
    // PartOfFeeRequiredToIncrease = 10: new ≥ old + old / 10 (UInt256 Divide: rounded down) and above the
    // old unless old / 10 > 0; legacy: gasPrice; EIP-1559: GasBottleneck, the effective gas price at the
    // pool's head base fee; an old fee of 0 is always replaced
    source: 'NethermindEth/nethermind src/Nethermind/Nethermind.TxPool/Comparison/CompareReplacedTxByFee.cs PartOfFeeRequiredToIncrease',
  },
  {
    client: 'nethermind',
    kind: 'blob',
    bumpPercent: 100n,
    compares: 'each-fee',
    rounding: 'down',
    strictlyAbove: false,
    // Nethermind src/Nethermind/Nethermind.TxPool/Comparison/CompareReplacedBlobTx.cs: MaxFeePerGas,
    // MaxPriorityFeePerGas and MaxFeePerDataGas each ≥ 2 × old ("at least 2x higher")
    source: 'NethermindEth/nethermind src/Nethermind/Nethermind.TxPool/Comparison/CompareReplacedBlobTx.cs',
  },
  {
    client: 'bor',
    kind: 'regular',
    bumpPercent: 10n,
    compares: 'each-fee',
    rounding: 'down',
    strictlyAbove: true,
    // bor (0xPolygon/bor) core/txpool/legacypool/legacypool.go DefaultConfig.PriceBump = 10, geth's
    // (*list).Add in core/txpool/legacypool/list.go; no blob pool (eth/backend.go: "Blob pool is removed")
    source: '0xPolygon/bor core/txpool/legacypool/legacypool.go DefaultConfig.PriceBump; core/txpool/legacypool/list.go (*list).Add',
  },
  {
    client: 'op-geth',
    kind: 'regular',
    bumpPercent: 10n,
    compares: 'each-fee',
    rounding: 'down',
    strictlyAbove: true,
    // ethereum-optimism/op-geth core/txpool/legacypool/legacypool.go DefaultConfig.PriceBump = 10, geth's
    // (*list).Add; blob transactions are refused on OP chains (core/txpool/validation.go: ErrTxTypeNotSupported)
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
    // foundry crates/anvil/src/eth/pool/transactions.rs ReadyTransactions::replaced_transactions and
    // PendingTransactions::add_transaction: refused (PoolError::ReplacementUnderpriced, "replacement
    // transaction underpriced") when new max_fee_per_gas ≤ old; no percentage, the tip is not compared
    source: 'foundry-rs/foundry crates/anvil/src/eth/pool/transactions.rs ReadyTransactions::replaced_transactions',
  },
  {
    client: 'anvil',
    kind: 'blob',
    bumpPercent: 0n,
    compares: 'max-fee',
    rounding: 'down',
    strictlyAbove: true,
    // the same pool and test for every transaction type: the blob fee is not compared
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
 * The lowest replacement every pool of REPLACEMENT_RULES takes, field by field, wei: with today's rows
 * ceil(fee × 110 / 100) (blob transactions: fee × 2, on all three fields), and at least fee + 1 (geth
 * refuses a fee that is not above the old one, so a zero tip becomes 1 wei).
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
  fees?: Pick<LevelEstimate, 'maxFeePerGas' | 'maxPriorityFeePerGas'>
  gasPrice: bigint
  /** The level's maxFeePerBlobGas (GET blobFees), wei, where the chain has blob fees. */
  maxFeePerBlobGas?: bigint
}

/**
 * Each level's suggestion for a window, wei, as suggestedGasFees and gasPrices answer them for it:
 * the estimator's levels and the next base fee plus each level's tip; on a chain without EIP-1559 the
 * legacy price rule alone.
 * @throws NoPriceDataError when a chain without EIP-1559 has no priced transaction in the window
 */
export function levelSuggestions(window: FeeWindow, policy: ChainFeePolicy): Record<Urgency, LevelSuggestion> {
  const data = toFeeData(window)
  if (window.legacy) {
    const prices = legacyGasPrices(data, window.chainId, policy)
    return { low: { gasPrice: prices.low }, medium: { gasPrice: prices.medium }, high: { gasPrice: prices.high } }
  }
  const levels = estimateLevels(data, withLiveParams(policy, window.headExtraData))
  const prices: LevelGasPrices = gasPricesFromLevels(data.nextBaseFee, levels)
  const level = (u: Urgency): LevelSuggestion => ({ fees: levels[u], gasPrice: prices[u] })
  return { low: level('low'), medium: level('medium'), high: level('high') }
}

/** The minimum and one replacement per level, wei. */
export type ReplacementFees = Record<'minimum' | Urgency, TransactionFees>

/**
 * The replacement fees: `minimum` (minimumReplacement) and, per level, the larger of the minimum and the
 * level's current suggestion, field by field, with the tip never above the max fee.
 */
export function replacementFees(fees: TransactionFees, suggestions: Record<Urgency, LevelSuggestion>): ReplacementFees {
  const minimum = minimumReplacement(fees)
  const at = (s: LevelSuggestion): TransactionFees => {
    if (minimum.type === 'legacy') return { type: 'legacy', gasPrice: max(minimum.gasPrice, s.gasPrice) }
    const maxFeePerGas = max(minimum.maxFeePerGas, s.fees?.maxFeePerGas ?? 0n)
    // never above the max fee: a node refuses such a transaction (TipAboveFeeCap); the minimum's tip is
    // never above the minimum's max fee, so the clamp keeps it
    const maxPriorityFeePerGas = min(max(minimum.maxPriorityFeePerGas, s.fees?.maxPriorityFeePerGas ?? 0n), maxFeePerGas)
    return minimum.type === 'blob'
      ? { type: 'blob', maxFeePerGas, maxPriorityFeePerGas, maxFeePerBlobGas: max(minimum.maxFeePerBlobGas, s.maxFeePerBlobGas ?? 0n) }
      : { type: 'eip1559', maxFeePerGas, maxPriorityFeePerGas }
  }
  return { minimum, low: at(suggestions.low), medium: at(suggestions.medium), high: at(suggestions.high) }
}
