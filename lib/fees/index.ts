import 'server-only'
/** The service's API to its routes: fee reports through the chain's feed (lib/feed) and the fee math of lib/core. */
import { chainFeed, heldWindows, type FeedsSettings } from '../feed/feeds'
import type { CachedFeeWindow } from '../feed/chain-feed'
import type { ChainConfig } from '../chains/registry'
import { accuracyOf, type AccuracyReport } from '../core/evaluation/accuracy'
import { feePolicyOf, getChain, getChains } from '../chains/registry'
import type { SupportedChainNames, SupportedNetworks } from '../core/contract/schemas'
import { getServerEnv, type ServerEnv } from '../env'
import {
  BlobFeeMarketUnsupportedError,
  BlobsUnsupportedError,
  FeeMarketUnsupportedError,
  UnsupportedChainError,
} from '../core/contract/errors'
import type { ChainFeePolicy } from '../core/chain-rules/chain-policy'
import { buildBlobFees, buildFeeReport, buildLegacyGasPrices, buildTransactionCost, type FeeReport } from '../core/contract/report'
import { blobFeesOf } from '../core/fee-math/blob-fees'
import { takesBlobTransactions } from '../core/chain-rules/blob-schedule'
import type { FeeWindow } from '../core/types'
import { windowAt } from '../core/window-at'
import { processSingleton } from '../runtime/process-singleton'
import {
  levelSuggestions,
  minimumReplacement,
  replacementFees,
  type LevelSuggestion,
  type TransactionFees,
} from '../core/fee-math/replacement'
import type { Urgency } from '../core/types'
import { formatGwei } from '../core/units'
import { transactionCost, type TransactionCostQuery } from '../core/fee-math/transaction-cost'
import { confidencePrices, type ConfidencePrice } from '../core/fee-math/confidence'
import { forecastBaseFee } from '../core/fee-math/forecast'
import { toFeeData } from '../core/fee-math/fee-data'
import { withLiveParams } from '../core/chain-rules/chain-policy'
import type { BlobFees } from '../core/fee-math/blob-fees'

/** The feeds' settings of a configuration, built once per configuration object. */
const feedSettings = processSingleton('feed-settings', () => new WeakMap<ServerEnv, FeedsSettings>())

function settingsOf(env: ServerEnv): FeedsSettings {
  let settings = feedSettings.get(env)
  if (!settings) {
    settings = {
      rpcTimeoutMs: env.RPC_TIMEOUT_MS,
      maxStaleMs: env.MAX_STALE_SECONDS * 1000,
      maxHeadAgeMs: env.MAX_HEAD_AGE_SECONDS === undefined ? undefined : env.MAX_HEAD_AGE_SECONDS * 1000,
      warmMs: env.FEED_WARM_SECONDS * 1000,
      waitMs: Math.min(env.FEED_WAIT_MS, env.RPC_TIMEOUT_MS),
      sharedStore: env.REDIS_URL !== undefined,
    }
    feedSettings.set(env, settings)
  }
  return settings
}

/** A served chain's feed: UnsupportedChainError when the chain is not served. */
function feedOf(chainId: number) {
  const chain = getChain(chainId)
  if (!chain) throw new UnsupportedChainError(chainId)
  return chainFeed(chain, settingsOf(getServerEnv()))
}

/** A configured chain's window, through its feed, as a request gets it, but not as demand (it does not warm the chain). */
const probeWindow = (chain: ChainConfig): Promise<CachedFeeWindow> => chainFeed(chain, settingsOf(getServerEnv())).get({ warm: false })

/**
 * Calls `listener` on each newer window or failed read; the chain stays warm while subscribed. Returns the unsubscribe.
 * @throws UnsupportedChainError
 */
export function watchChain(chainId: number, listener: () => void): () => void {
  return feedOf(chainId).subscribe(listener)
}

/** Per chain, the head, read time and fresh period (ms) of the window this process holds (for /metrics and /readyz). */
export function cachedWindows(): { chainId: number; headNumber: number; headTimestamp: number; fetchedAt: number; ttlMs: number }[] {
  return heldWindows().map(({ chain, window, periodMs }) => ({
    chainId: chain.id,
    headNumber: window.headNumber,
    headTimestamp: window.headTimestamp,
    fetchedAt: window.fetchedAt,
    ttlMs: periodMs,
  }))
}

/** What a response needs besides its body: which block, how old, whether stale. */
export type ReportMeta = {
  chainId: number
  blockNumber: number
  /** unix seconds */
  blockTimestamp: number
  /** The chain's measured block interval, ms. */
  blockIntervalMs: number
  /** ms since the epoch */
  fetchedAt: number
  /** ms since the epoch */
  freshUntil: number
  stale: boolean
}

const metaOf = (window: FeeWindow, stale: boolean, freshUntil: number): ReportMeta => ({
  chainId: window.chainId,
  blockNumber: window.headNumber,
  blockTimestamp: window.headTimestamp,
  blockIntervalMs: window.blockIntervalMs,
  fetchedAt: window.fetchedAt,
  freshUntil,
  stale,
})

/** An endpoint's name: the key of its body in a FeeReport. */
export type Endpoint = keyof FeeReport

/** A value derived from a window, computed once per window and dropped with it. */
function perWindow<T>(name: string, compute: (window: FeeWindow, policy: ChainFeePolicy) => T) {
  const memo = processSingleton(name, () => new WeakMap<FeeWindow, T>())
  return (window: FeeWindow, policy: ChainFeePolicy): T => {
    let value = memo.get(window)
    if (value === undefined) memo.set(window, (value = compute(window, policy)))
    return value
  }
}

/** Each endpoint's body for a window, serialised once. */
const bodiesFor = perWindow('report-bodies', (window, policy) => {
  const report = buildFeeReport(window, policy)
  return Object.fromEntries(Object.entries(report).map(([k, v]) => [k, JSON.stringify(v)])) as Record<Endpoint, string>
})

/** gasPrices of a chain without EIP-1559 (lib/core/fee-math/gas-prices.ts), serialised once per window. */
const legacyGasPricesBody = perWindow('legacy-gas-prices-bodies', (window, policy) => JSON.stringify(buildLegacyGasPrices(window, policy)))

/** The window a request is answered from, with its meta; `feeMarket` refuses a chain without EIP-1559. */
async function servedWindow(chainId: number, opts: { feeMarket: boolean; countLookup?: boolean }) {
  const feed = feedOf(chainId)
  const { window, stale, freshUntil } = await feed.get({ countLookup: opts.countLookup })
  if (opts.feeMarket && window.legacy) throw new FeeMarketUnsupportedError(chainId)
  return { window, policy: feePolicyOf(feed.chain), meta: metaOf(window, stale, freshUntil) }
}

/**
 * The blob fees of a window once (lib/core/fee-math/blob-fees.ts), for GET blobFees, the blob levels and the
 * confidence answers; or the error that says why the window has none.
 */
const blobsOf = perWindow('blob-fees', (window): { fees: BlobFees } | { error: unknown } => {
  try {
    return { fees: blobFeesOf(window) }
  } catch (error) {
    return { error }
  }
})

/** GET blobFees' body for a window, serialised once; or the error that says why the window has none. */
const blobFeesFor = perWindow('blob-fees-bodies', (window, policy): { body: string } | { error: unknown } => {
  const blob = blobsOf(window, policy)
  return 'fees' in blob ? { body: JSON.stringify(buildBlobFees(window, blob.fees)) } : blob
})

/**
 * The fee report of a supported chain, with GET blobFees' body of the same window where the chain has blobs.
 * @throws UnsupportedChainError, FeeMarketUnsupportedError, UpstreamUnavailableError, UpstreamBadResponseError
 */
export async function getFeeReport(
  chainId: number,
  opts: { countLookup?: boolean } = {},
): Promise<{ bodies: Record<Endpoint, string>; meta: ReportMeta; blobFees?: string }> {
  const { window, policy, meta } = await servedWindow(chainId, { feeMarket: true, ...opts })
  const blob = blobFeesFor(window, policy)
  return { bodies: bodiesFor(window, policy), meta, ...('body' in blob ? { blobFees: blob.body } : {}) }
}

/**
 * The fee reports of the blocks after `afterBlock` and before the served window's head, oldest first (at
 * most `max`, the newest kept), each from the window cut at its block (lib/core/window-at.ts), with the
 * served window's staleness: a stream pushes every block, also when the feed took two windows between
 * its looks or one read found two new blocks.
 */
export async function getFeeReportsBefore(
  chainId: number,
  afterBlock: number,
  max: number,
): Promise<{ block: number; stale: boolean; bodies: Record<Endpoint, string>; blobFees?: string }[]> {
  const { window, policy, meta } = await servedWindow(chainId, { feeMarket: true, countLookup: false })
  const from = Math.max(afterBlock + 1, window.headNumber - max)
  const reports = []
  for (let block = from; block < window.headNumber; block++) {
    const cut = windowAt(window, block)
    if (!cut) continue
    const blob = blobFeesFor(cut, policy)
    reports.push({ block, stale: meta.stale, bodies: bodiesFor(cut, policy), ...('body' in blob ? { blobFees: blob.body } : {}) })
  }
  return reports
}

/**
 * GET blobFees of a supported chain, from the same window as the other endpoints (no read of its own).
 * @throws UnsupportedChainError, BlobFeeMarketUnsupportedError, UpstreamUnavailableError, UpstreamBadResponseError
 */
export async function getBlobFees(chainId: number): Promise<{ body: string; meta: ReportMeta }> {
  if (getChain(chainId) && !takesBlobTransactions(chainId)) throw new BlobFeeMarketUnsupportedError(chainId)
  const { window, policy, meta } = await servedWindow(chainId, { feeMarket: false })
  const blob = blobFeesFor(window, policy)
  if ('error' in blob) throw blob.error
  return { body: blob.body, meta }
}

/**
 * GET gasPrices of a supported chain, EIP-1559 or not (then lib/core/fee-math/gas-prices.ts), from the same window.
 * @throws UnsupportedChainError, NoPriceDataError, UpstreamUnavailableError, UpstreamBadResponseError
 */
export async function getGasPrices(chainId: number): Promise<{ body: string; meta: ReportMeta }> {
  const { window, policy, meta } = await servedWindow(chainId, { feeMarket: false })
  return { body: window.legacy ? legacyGasPricesBody(window, policy) : bodiesFor(window, policy).gasPrices, meta }
}

/** Each level's current suggestion in wei (lib/core/fee-math/replacement.ts levelSuggestions), once per window. */
const suggestionsFor = perWindow('replacement-suggestions', levelSuggestions)

/** GET blobFees' maxFeePerBlobGas per level; null where the window has no blob fees. */
const blobLevelsFor = (window: FeeWindow, policy: ChainFeePolicy): Record<Urgency, bigint> | null => {
  const blob = blobsOf(window, policy)
  return 'fees' in blob ? blob.fees.levels : null
}

/** The levels' suggestions with GET blobFees' maxFeePerBlobGas per level, where the window has blob fees. */
function withBlobLevels(
  window: FeeWindow,
  policy: ChainFeePolicy,
  suggestions: Record<Urgency, LevelSuggestion>,
): Record<Urgency, LevelSuggestion> {
  const levels = blobLevelsFor(window, policy)
  if (!levels) return suggestions
  return {
    low: { ...suggestions.low, maxFeePerBlobGas: levels.low },
    medium: { ...suggestions.medium, maxFeePerBlobGas: levels.medium },
    high: { ...suggestions.high, maxFeePerBlobGas: levels.high },
  }
}

/** A replacement's fees as the API writes them: decimal gwei, the fields of the query's transaction type. */
function gweiFees(fees: TransactionFees): Record<string, string> {
  const { type: _type, ...amounts } = fees
  return Object.fromEntries(Object.entries(amounts).map(([k, v]) => [k, formatGwei(v)]))
}

/**
 * GET replacementFees: the fees that replace a pending transaction with `fees` (lib/core/fee-math/replacement.ts).
 * @throws UnsupportedChainError, FeeMarketUnsupportedError, BlobsUnsupportedError, InvalidQueryError,
 *   NoPriceDataError, UpstreamUnavailableError, UpstreamBadResponseError
 */
export async function getReplacementFees(chainId: number, fees: TransactionFees): Promise<{ body: string; meta: ReportMeta }> {
  const chain = getChain(chainId)
  if (chain && fees.type === 'blob' && !takesBlobTransactions(chainId)) throw new BlobsUnsupportedError(chainId)
  // a fee too high to bump is the query's fault: said before any read
  minimumReplacement(fees)
  const { window, policy, meta } = await servedWindow(chainId, { feeMarket: fees.type !== 'legacy' })
  const answer = replacementFees(
    fees,
    fees.type === 'blob' ? withBlobLevels(window, policy, suggestionsFor(window, policy)) : suggestionsFor(window, policy),
  )
  const body = JSON.stringify({
    minimum: gweiFees(answer.minimum),
    low: gweiFees(answer.low),
    medium: gweiFees(answer.medium),
    high: gweiFees(answer.high),
  })
  return { body, meta }
}

/**
 * GET transactionCost: a transaction's whole cost per level (lib/core/fee-math/transaction-cost.ts), no read of its own.
 * @throws UnsupportedChainError, InvalidQueryError (gas above the chain's cap), NoPriceDataError,
 *   UpstreamUnavailableError, UpstreamBadResponseError
 */
export async function getTransactionCost(chainId: number, query: TransactionCostQuery): Promise<{ body: string; meta: ReportMeta }> {
  const { window, policy, meta } = await servedWindow(chainId, { feeMarket: false })
  const chain = getChain(chainId)
  const cost = transactionCost(window, suggestionsFor(window, policy), query, {
    maxTransactionGas: policy.maxTransactionGas,
    l1FeeRule: chain?.l1FeeRule,
    unknownL1Fee: chain?.unknownL1Fee,
  })
  return { body: JSON.stringify(buildTransactionCost(cost)), meta }
}

/** Per chain, the last accuracy report computed and when (for /metrics, which never waits for a new one). */
const lastAccuracy = processSingleton('accuracy-last', () => new Map<number, { report: AccuracyReport; at: number }>())
/** /metrics computes a chain's accuracy at most this often; /accuracy once per window. */
const METRICS_ACCURACY_PERIOD_MS = 60_000

/** The accuracy report of a window, computed once per window and kept with it. */
const accuracyFor = perWindow('accuracy-reports', (window, policy) => {
  const report = accuracyOf(window, policy)
  lastAccuracy.set(window.chainId, { report, at: Date.now() })
  return { report, body: JSON.stringify(report) }
})

/**
 * How the service's own suggestions fared over the window it serves (lib/core/evaluation/accuracy.ts).
 * @throws as getFeeReport
 */
export async function getAccuracyReport(chainId: number): Promise<{ body: string; report: AccuracyReport; meta: ReportMeta }> {
  const { window, policy, meta } = await servedWindow(chainId, { feeMarket: true })
  return { ...accuracyFor(window, policy), meta }
}

/** Per held window, its accuracy for /metrics (no read): the last report, recomputed when over a minute old. */
export function heldAccuracy(now = Date.now()): AccuracyReport[] {
  return heldWindows().flatMap(({ chain, window }) => {
    if (window.legacy) return []
    const last = lastAccuracy.get(chain.id)
    if (last && now - last.at < METRICS_ACCURACY_PERIOD_MS) return [last.report]
    return [accuracyFor(window, feePolicyOf(chain)).report]
  })
}

/** The chains this service answers for: OP-stack chains (the client adds their L1 data fee) apart. */
export function supportedNetworks(): SupportedNetworks {
  const chains = [...getChains().values()]
  return {
    fullSupport: chains.filter((c) => !c.opStack).map((c) => c.id),
    partialSupport: { optimism: chains.filter((c) => c.opStack).map((c) => c.id) },
  }
}

/** Each supported chain's name, by decimal chain id. */
export function supportedChainNames(): SupportedChainNames {
  return Object.fromEntries([...getChains().values()].map((c) => [String(c.id), c.name]))
}

/**
 * What readiness (/readyz) is judged on: every chain's window, as a request gets it but without warming the chain
 * (a load balancer's probes would otherwise keep every chain read).
 */
export async function probeChains(): Promise<{
  chainIds: number[]
  windows: ReturnType<typeof cachedWindows>
  errors: Map<number, string>
}> {
  const chains = [...getChains().values()]
  const results = await Promise.allSettled(chains.map((c) => probeWindow(c)))
  const errors = new Map<number, string>()
  results.forEach((r, i) => {
    if (r.status === 'rejected') errors.set(chains[i]!.id, r.reason instanceof Error ? r.reason.name : 'Error')
  })
  return { chainIds: chains.map((c) => c.id), windows: cachedWindows(), errors }
}

/** The highest confidence level: the ladder of every window is made up to it, once. */
const TOP_CONFIDENCE = 99

/**
 * Per window, what the confidence answers are made of, in wei: each level 1…99 of the levels' model with a
 * one-block wait (lib/core/fee-math/confidence.ts), the base-fee forecast's and the blob forecast's quantiles,
 * and what the service read of the head. Made once per window, whatever levels a request asks.
 */
const confidenceOf = perWindow('confidence-report', (window, policy) => {
  const data = toFeeData(window)
  const live = withLiveParams(policy, window.headExtraData)
  const ladder = confidencePrices(
    data,
    live,
    Array.from({ length: TOP_CONFIDENCE }, (_, i) => i + 1),
  )
  const forecast = forecastBaseFee(data.baseFees, data.nextBaseFee, live)
  const blob = blobsOf(window, policy)
  // a chain without blobs has no blob fields; a chain with blobs whose node reports none, GET blobFees' error
  if ('error' in blob && !(blob.error instanceof BlobFeeMarketUnsupportedError)) return { error: blob.error }
  const blobs = 'fees' in blob ? blob.fees : null
  return {
    ladder,
    baseFeeForecast: forecast.horizons.map((h) => ({ blocks: h.blocks, p50: h.p50, p99: h.p99 })),
    blob: blobs && {
      nextBlobBaseFee: blobs.nextBlobBaseFee,
      forecast: blobs.forecast.horizons.map((h) => ({ blocks: h.blocks, p50: h.p50, p99: h.p99 })),
    },
    maxPrice: highestPricePaid(data.baseFees, data.rewards, data.rewardPercentiles) ?? data.nextBaseFee,
  }
})

/**
 * The highest effective gas price (wei) the newest block with tip data paid: its base fee plus its 100th-percentile
 * reward; null when no block of the window has one.
 */
function highestPricePaid(baseFees: readonly bigint[], rewards: readonly bigint[][], percentiles: readonly number[]): bigint | null {
  const column = percentiles.indexOf(100)
  if (column < 0) return null
  for (let i = rewards.length - 1; i >= 0; i--) {
    const top = rewards[i]?.[column]
    if (top !== undefined && baseFees[i] !== undefined) return baseFees[i]! + top
  }
  return null
}

/** One window's confidence answers (wei) and what a response needs of it. */
export type ConfidenceReport = {
  meta: ReportMeta
  /** The next block's base fee (head + 1): suggestedGasFees' estimatedBaseFee. */
  nextBaseFee: bigint
  /** Each asked level, in the order asked. */
  prices: ConfidencePrice[]
  /** The base fee of blocks head + 1 … head + 10: p50 and p99 of the forecast (GET baseFeeForecast). */
  baseFeeForecast: { blocks: number; p50: bigint; p99: bigint }[]
  /** Where the chain has blobs: the next blob base fee and its forecast (GET blobFees). */
  blob: { nextBlobBaseFee: bigint; forecast: { blocks: number; p50: bigint; p99: bigint }[] } | null
  /** How many transactions the head block holds, where the node said. */
  headTransactionCount: number | null
  /** The highest effective gas price the newest block with tip data paid (else the next base fee). */
  maxPrice: bigint
}

/**
 * The confidence answers of a supported EIP-1559 chain (GET /gasprices/…), from the same window as every endpoint.
 * @param confidences integers in 1…99 (percent), answered in this order
 * @throws UnsupportedChainError, FeeMarketUnsupportedError, UpstreamUnavailableError, UpstreamBadResponseError (also a
 *   chain with blobs whose node reports none, as GET blobFees)
 */
export async function getConfidenceReport(chainId: number, confidences: readonly number[]): Promise<ConfidenceReport> {
  const { window, policy, meta } = await servedWindow(chainId, { feeMarket: true })
  const made = confidenceOf(window, policy)
  if ('error' in made) throw made.error
  return {
    meta,
    nextBaseFee: BigInt(window.nextBaseFeePerGas),
    prices: confidences.map((c) => {
      const price = made.ladder[c - 1]
      if (!price) throw new RangeError(`confidence ${c} is not an integer in 1…${TOP_CONFIDENCE}`)
      return price
    }),
    baseFeeForecast: made.baseFeeForecast,
    blob: made.blob,
    headTransactionCount: window.headTransactionCount ?? null,
    maxPrice: made.maxPrice,
  }
}

/** A supported chain as the catalogues list it. */
export type ServedChain = { chainId: number; name: string; testnet: boolean; blobs: boolean; opStack: boolean }

/** The list per chain registry (one per configuration), so it is the same array until the configuration changes. */
const servedLists = processSingleton('served-chains', () => new WeakMap<Map<number, ChainConfig>, readonly ServedChain[]>())

/** Each supported chain: its id, viem's name, and whether it takes blob transactions; the same array while the configuration stands. */
export function servedChains(): readonly ServedChain[] {
  const chains = getChains()
  let list = servedLists.get(chains)
  if (!list) {
    list = [...chains.values()].map((c) => ({
      chainId: c.id,
      name: c.name,
      testnet: c.testnet ?? false,
      blobs: takesBlobTransactions(c.id),
      opStack: c.opStack ?? false,
    }))
    servedLists.set(chains, list)
  }
  return list
}
