import { chainFeePolicy, type ChainFeePolicy } from '../chain-rules/chain-policy'
import { baseFeeStats, baseFeeTrend, priorityFeeRanges, priorityFeeTrend } from '../fee-math/estimator'
import { forecastBaseFee, type BaseFeeForecast } from '../fee-math/forecast'
import { legacyGasPrices, type LevelGasPrices } from '../fee-math/gas-prices'
import { windowGasPrices, windowLevels } from '../fee-math/chain-levels'
import type {
  BaseFeeForecastBody,
  BaseFeeHistory,
  BaseFeePercentile,
  BlobFeesBody,
  BusyThreshold,
  GasPrices,
  SuggestedGasFees,
  TransactionCostBody,
} from './schemas'
import type { FeeWindow, LevelEstimate, PendingPieces, Urgency } from '../types'
import { piecesCrowded } from '../fee-math/flashblocks'
import { toFeeData } from '../fee-math/fee-data'
import { blobFeesOf, type BlobFees } from '../fee-math/blob-fees'
import type { TransactionCost } from '../fee-math/transaction-cost'
import { formatGwei } from '../units'
import { windowPolicy } from '../fee-math/window-policy'

/** The EIP-1559 endpoints' bodies and the legacy gas prices for one fee window, ready to serialise. */
export type FeeReport = {
  suggestedGasFees: SuggestedGasFees
  busyThreshold: BusyThreshold
  baseFeePercentile: BaseFeePercentile
  baseFeeHistory: BaseFeeHistory
  baseFeeForecast: BaseFeeForecastBody
  gasPrices: GasPrices
}

/** One level of suggestedGasFees in decimal gwei and ms. */
export function levelBody(l: LevelEstimate) {
  return {
    suggestedMaxPriorityFeePerGas: formatGwei(l.maxPriorityFeePerGas),
    suggestedMaxFeePerGas: formatGwei(l.maxFeePerGas),
    minWaitTimeEstimate: l.minWaitTimeMs,
    maxWaitTimeEstimate: l.maxWaitTimeMs,
  }
}

/** GET gasPrices' body from each level's price, wei. */
export const gasPricesBody = (p: LevelGasPrices): GasPrices => ({
  SafeGasPrice: formatGwei(p.low),
  ProposeGasPrice: formatGwei(p.medium),
  FastGasPrice: formatGwei(p.high),
})

/**
 * GET gasPrices of a window of a chain without EIP-1559 (window.legacy): the legacy price rule of
 * lib/core/fee-math/gas-prices.ts. (On an EIP-1559 window, buildFeeReport's gasPrices.)
 * @throws NoPriceDataError when the window holds no priced transaction
 */
export function buildLegacyGasPrices(window: FeeWindow, policy: ChainFeePolicy = chainFeePolicy(window.chainId)): GasPrices {
  return gasPricesBody(legacyGasPrices(toFeeData(window), window.chainId, policy))
}

/** The forecast of the base fee at the window's head, in gwei (its `method` is the model's business, not the body's). */
function forecastBody(headNumber: number, forecast: BaseFeeForecast): BaseFeeForecastBody {
  return {
    blockNumber: headNumber,
    estimatedBaseFee: formatGwei(forecast.estimatedBaseFee),
    horizons: forecast.horizons.map((h) => ({
      blocks: h.blocks,
      p50: formatGwei(h.p50),
      p90: formatGwei(h.p90),
      p99: formatGwei(h.p99),
      bound: h.bound === null ? null : formatGwei(h.bound),
    })),
  }
}

const pendingBody = (p: PendingPieces) => ({
  blockNumber: p.blockNumber,
  piece: p.piece,
  pieces: p.pieces,
  cadenceMs: p.cadenceMs,
  full: piecesCrowded(p),
})

const pair = ([a, b]: [bigint, bigint]): [string, string] => [formatGwei(a), formatGwei(b)]

/** Computes every endpoint's answer from one window, by the chain's fee policy: wei math inside, decimal gwei strings out. */
export function buildFeeReport(window: FeeWindow, policy: ChainFeePolicy = chainFeePolicy(window.chainId)): FeeReport {
  const data = toFeeData(window)
  // the head's rules: OP-stack's live EIP-1559 parameters set the bounds of both, Linea's pricing the tips' floor,
  // and the fast chains' own (chain-levels.ts)
  const live = windowPolicy(policy, window)
  const levels = windowLevels(window, policy)
  const stats = baseFeeStats(data)
  const tips = priorityFeeRanges(data)
  return {
    suggestedGasFees: {
      low: levelBody(levels.low),
      medium: levelBody(levels.medium),
      high: levelBody(levels.high),
      estimatedBaseFee: formatGwei(data.nextBaseFee),
      networkCongestion: stats.congestion,
      latestPriorityFeeRange: pair(tips.latest),
      historicalPriorityFeeRange: pair(tips.historical),
      historicalBaseFeeRange: pair(stats.range),
      priorityFeeTrend: priorityFeeTrend(data),
      baseFeeTrend: baseFeeTrend(data),
      ...(window.pending ? { pending: pendingBody(window.pending) } : {}),
    },
    busyThreshold: { busyThreshold: formatGwei(stats.p90) },
    baseFeePercentile: { baseFeePercentile: formatGwei(stats.p50) },
    baseFeeHistory: data.baseFees.map(formatGwei),
    baseFeeForecast: forecastBody(window.headNumber, forecastBaseFee(data.baseFees, data.nextBaseFee, live)),
    gasPrices: gasPricesBody(windowGasPrices(window, policy, levels)),
  }
}

/**
 * GET blobFees' body for a window: the blob fees in decimal gwei, the window's blob fullness, and the
 * blob target and maximum of the fork active at the head, from the window's blob fees (made here unless given).
 * @throws as blobFeesOf
 */
export function buildBlobFees(window: FeeWindow, fees: BlobFees = blobFeesOf(window)): BlobFeesBody {
  const level = (wei: bigint) => ({ suggestedMaxFeePerBlobGas: formatGwei(wei) })
  return {
    blockNumber: window.headNumber,
    estimatedBlobBaseFee: formatGwei(fees.nextBlobBaseFee),
    low: level(fees.levels.low),
    medium: level(fees.levels.medium),
    high: level(fees.levels.high),
    blobGasUsedRatio: fees.blobGasUsedRatio,
    blobTarget: fees.fork.params.target,
    blobMax: fees.fork.params.max,
    forecast: {
      method: fees.forecast.method,
      horizons: fees.forecast.horizons.map((h) => ({
        blocks: h.blocks,
        p50: formatGwei(h.p50),
        p90: formatGwei(h.p90),
        p99: formatGwei(h.p99),
        bound: formatGwei(h.bound),
      })),
    },
  }
}

/** GET transactionCost's body: the cost (lib/core/fee-math/transaction-cost.ts) in decimal gwei of the native token. */
export function buildTransactionCost(cost: TransactionCost): TransactionCostBody {
  const gweiOrNull = (wei: bigint | null) => (wei === null ? null : formatGwei(wei))
  const level = (u: Urgency) => ({
    fee: formatGwei(cost.levels[u].fee),
    maxFee: formatGwei(cost.levels[u].maxFee),
    maxPriorityFeePerGas: formatGwei(cost.levels[u].maxPriorityFeePerGas),
    maxFeePerGas: formatGwei(cost.levels[u].maxFeePerGas),
    minWaitTimeEstimate: cost.levels[u].minWaitTimeMs,
    maxWaitTimeEstimate: cost.levels[u].maxWaitTimeMs,
  })
  return {
    blockNumber: cost.blockNumber,
    gas: Number(cost.gas),
    txBytes: cost.txBytes,
    nativeToken: cost.nativeToken,
    l1DataFee: gweiOrNull(cost.l1DataFee),
    l1DataFeeBasis: cost.l1DataFeeBasis,
    operatorFee: gweiOrNull(cost.operatorFee),
    priorityFeeFloor: gweiOrNull(cost.priorityFeeFloor),
    ...(cost.gasCharged ? { gasCharged: cost.gasCharged } : {}),
    low: level('low'),
    medium: level('medium'),
    high: level('high'),
  }
}
