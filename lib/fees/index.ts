/**
 * The service's public API: fee reports for a chain, read through the cache. Everything else in
 * lib/fees is pure; this file is the one that composes the cache with the math.
 */
import { getFeeWindow } from '../cache/fee-window'
import { getChain } from '../chains/registry'
import { UnsupportedChainError } from '../http/errors'
import { buildFeeReport, type FeeReport } from './report'
import type { FeeWindow } from './types'

export type { FeeReport } from './report'
export type { FeeWindow } from './types'

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

const reports = new WeakMap<FeeWindow, FeeReport>()

/** One report per window, computed once however many requests read it. */
function reportFor(window: FeeWindow): FeeReport {
  let report = reports.get(window)
  if (!report) reports.set(window, (report = buildFeeReport(window)))
  return report
}

/**
 * The fee report of a supported chain.
 * @throws UnsupportedChainError, FeeMarketUnsupportedError, UpstreamUnavailableError, UpstreamBadResponseError
 */
export async function getFeeReport(chainId: number): Promise<{ report: FeeReport; meta: ReportMeta }> {
  const chain = getChain(chainId)
  if (!chain) throw new UnsupportedChainError(chainId)
  const { window, stale, freshUntil } = await getFeeWindow(chain)
  return {
    report: reportFor(window),
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
