import 'server-only'
/** The fee endpoints' bodies of a window (suggestedGasFees … gasPrices, blobFees), serialised once per window. */
import { feePolicyOf, getChain } from '../chains/registry'
import { BlobFeeMarketUnsupportedError } from '../core/contract/errors'
import { buildBlobFees, buildFeeReport, buildLegacyGasPrices, type FeeReport } from '../core/contract/report'
import { blobFeesOf, type BlobFees } from '../core/fee-math/blob-fees'
import { takesBlobTransactions } from '../core/chain-rules/blob-schedule'
import { windowAt } from '../core/window-at'
import { perWindow, servedWindow, type ReportMeta } from './served-window'

/** An endpoint's name: the key of its body in a FeeReport. */
export type Endpoint = keyof FeeReport

/** Each endpoint's body for a window, serialised once. */
const bodiesFor = perWindow('report-bodies', (window, policy) => {
  const report = buildFeeReport(window, policy)
  return Object.fromEntries(Object.entries(report).map(([k, v]) => [k, JSON.stringify(v)])) as Record<Endpoint, string>
})

/** gasPrices of a chain without EIP-1559 (lib/core/fee-math/gas-prices.ts), serialised once per window. */
const legacyGasPricesBody = perWindow('legacy-gas-prices-bodies', (window, policy) => JSON.stringify(buildLegacyGasPrices(window, policy)))

/**
 * The blob fees of a window once (lib/core/fee-math/blob-fees.ts), for GET blobFees, the blob levels and the
 * confidence answers; or the error that says why the window has none.
 */
export const blobsOf = perWindow('blob-fees', (window, policy): { fees: BlobFees } | { error: unknown } => {
  try {
    return { fees: blobFeesOf(window, policy.family) }
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
  const chain = getChain(chainId)
  if (chain && !takesBlobTransactions(chainId, feePolicyOf(chain).family)) throw new BlobFeeMarketUnsupportedError(chainId)
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
