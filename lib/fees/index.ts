import 'server-only'
/**
 * The service's public API: fee reports for a chain, read through the cache. Everything else in
 * lib/fees is pure; this file is the one that composes the cache with the math.
 */
import { cachedWindows, getFeeWindow, heldWindows } from '../feed/fee-window'
import { accuracyOf, type AccuracyReport } from '../core/accuracy'
import { feePolicyOf, getChain, getChains } from '../chains/registry'
import type { SupportedChainNames, SupportedNetworks } from '../core/schemas'
import { getServerEnv } from '../env'
import { assessReadiness, type Readiness } from '../core/readiness'
import { FeeMarketUnsupportedError, UnsupportedChainError } from '../core/errors'
import type { ChainFeePolicy } from '../core/chain-policy'
import { buildFeeReport, buildLegacyGasPrices, type FeeReport } from '../core/report'
import type { FeeWindow } from '../core/types'
import { processSingleton } from '../core/process-singleton'

export type { FeeReport } from '../core/report'
/** Per chain, the window this process holds (for /metrics). */
export { cachedWindows } from '../feed/fee-window'
export type { FeeWindow } from '../core/types'
export type { AccuracyReport } from '../core/accuracy'

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

const reports = processSingleton('report-bodies', () => new WeakMap<FeeWindow, Record<Endpoint, string>>())

/** Each endpoint's body for a window, computed and serialised once however many requests read it. */
function bodiesFor(window: FeeWindow, policy: ChainFeePolicy): Record<Endpoint, string> {
  let bodies = reports.get(window)
  if (!bodies) {
    const report = buildFeeReport(window, policy)
    bodies = Object.fromEntries(Object.entries(report).map(([k, v]) => [k, JSON.stringify(v)])) as Record<Endpoint, string>
    reports.set(window, bodies)
  }
  return bodies
}

/**
 * The fee report of a supported chain.
 * @throws UnsupportedChainError, FeeMarketUnsupportedError, UpstreamUnavailableError, UpstreamBadResponseError
 */
export async function getFeeReport(
  chainId: number,
  opts: { countLookup?: boolean } = {},
): Promise<{ bodies: Record<Endpoint, string>; meta: ReportMeta }> {
  const chain = getChain(chainId)
  if (!chain) throw new UnsupportedChainError(chainId)
  const { window, stale, freshUntil } = await getFeeWindow(chain, opts)
  if (window.legacy) throw new FeeMarketUnsupportedError(chainId)
  return {
    bodies: bodiesFor(window, feePolicyOf(chain)),
    meta: metaOf(window, stale, freshUntil),
  }
}

const legacyBodies = processSingleton('legacy-gas-prices-bodies', () => new WeakMap<FeeWindow, string>())

/**
 * GET gasPrices of a supported chain, EIP-1559 or not, from the same window (one read per block for
 * every endpoint): on an EIP-1559 chain the next base fee plus each level's tip (the report's
 * gasPrices); on a chain without EIP-1559 the legacy price rule (lib/core/gas-prices.ts).
 * @throws UnsupportedChainError, NoPriceDataError, UpstreamUnavailableError, UpstreamBadResponseError
 */
export async function getGasPrices(chainId: number): Promise<{ body: string; meta: ReportMeta }> {
  const chain = getChain(chainId)
  if (!chain) throw new UnsupportedChainError(chainId)
  const { window, stale, freshUntil } = await getFeeWindow(chain)
  let body: string | undefined
  if (!window.legacy) body = bodiesFor(window, feePolicyOf(chain)).gasPrices
  else if ((body = legacyBodies.get(window)) === undefined) {
    body = JSON.stringify(buildLegacyGasPrices(window, feePolicyOf(chain)))
    legacyBodies.set(window, body)
  }
  return { body, meta: metaOf(window, stale, freshUntil) }
}

const accuracies = processSingleton('accuracy-reports', () => new WeakMap<FeeWindow, { report: AccuracyReport; body: string }>())
/** Per chain, the last accuracy report computed and when (for /metrics, which never waits for a new one). */
const lastAccuracy = processSingleton('accuracy-last', () => new Map<number, { report: AccuracyReport; at: number }>())
/** /metrics computes a chain's accuracy at most this often; /accuracy once per window. */
const METRICS_ACCURACY_PERIOD_MS = 60_000

/**
 * The accuracy report of a window, computed once per window and kept with it. The backtest over 500
 * blocks is synchronous CPU (docs/api.md gives the measured cost), so callers ask for it sparingly.
 */
function accuracyFor(window: FeeWindow, policy: ChainFeePolicy): { report: AccuracyReport; body: string } {
  let entry = accuracies.get(window)
  if (!entry) {
    const report = accuracyOf(window, policy)
    entry = { report, body: JSON.stringify(report) }
    accuracies.set(window, entry)
    lastAccuracy.set(window.chainId, { report, at: Date.now() })
  }
  return entry
}

/**
 * How the service's own suggestions fared over the window it serves (lib/core/accuracy.ts), with the
 * same meta as the fee report of that window. Reads nothing beyond what getFeeReport reads.
 * @throws as getFeeReport
 */
export async function getAccuracyReport(chainId: number): Promise<{ body: string; report: AccuracyReport; meta: ReportMeta }> {
  const chain = getChain(chainId)
  if (!chain) throw new UnsupportedChainError(chainId)
  const { window, stale, freshUntil } = await getFeeWindow(chain)
  if (window.legacy) throw new FeeMarketUnsupportedError(chainId)
  const { report, body } = accuracyFor(window, feePolicyOf(chain))
  return {
    body,
    report,
    meta: metaOf(window, stale, freshUntil),
  }
}

/**
 * Per chain whose window this process holds, the accuracy over it (for /metrics; no read): the last
 * report computed, recomputed on the held window only when that report is older than a minute.
 */
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
 * Readiness (/readyz): asks every configured chain for its window through the feed, exactly as a
 * request would (a fresh window: no read; an older one: at most the single-flight's one read per
 * block, behind the answer; none young enough: a read bounded by RPC_TIMEOUT_MS; a failing chain:
 * nothing within its back-off), then reports which chains hold a window no older than MAX_STALE_SECONDS.
 */
export async function checkReadiness(): Promise<Readiness> {
  const chains = [...getChains().values()]
  const results = await Promise.allSettled(chains.map((c) => getFeeWindow(c)))
  const errors = new Map<number, string>()
  results.forEach((r, i) => {
    if (r.status === 'rejected') errors.set(chains[i]!.id, r.reason instanceof Error ? r.reason.name : 'Error')
  })
  return assessReadiness({
    chainIds: chains.map((c) => c.id),
    windows: cachedWindows(),
    errors,
    now: Date.now(),
    maxStaleSeconds: getServerEnv().MAX_STALE_SECONDS,
  })
}
