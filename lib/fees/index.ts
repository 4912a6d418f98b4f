import 'server-only'
/**
 * The service's public API: fee reports for a chain, read through the cache. Everything else in
 * lib/fees is pure; this file is the one that composes the cache with the math.
 */
import { cachedWindows, getFeeWindow } from '../feed/fee-window'
import { feePolicyOf, getChain, getChains } from '../chains/registry'
import { getServerEnv } from '../env'
import { assessReadiness, type Readiness } from '../core/readiness'
import { UnsupportedChainError } from '../core/errors'
import type { ChainFeePolicy } from '../core/chain-policy'
import { buildFeeReport, type FeeReport } from '../core/report'
import type { FeeWindow } from '../core/types'
import { processSingleton } from '../core/process-singleton'

export type { FeeReport } from '../core/report'
/** Per chain, the window this process holds (for /metrics). */
export { cachedWindows } from '../feed/fee-window'
export type { FeeWindow } from '../core/types'

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
export async function getFeeReport(chainId: number): Promise<{ bodies: Record<Endpoint, string>; meta: ReportMeta }> {
  const chain = getChain(chainId)
  if (!chain) throw new UnsupportedChainError(chainId)
  const { window, stale, freshUntil } = await getFeeWindow(chain)
  return {
    bodies: bodiesFor(window, feePolicyOf(chain)),
    meta: {
      chainId,
      blockNumber: window.headNumber,
      blockTimestamp: window.headTimestamp,
      blockIntervalMs: window.blockIntervalMs,
      fetchedAt: window.fetchedAt,
      freshUntil,
      stale,
    },
  }
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
