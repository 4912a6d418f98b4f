import 'server-only'
/** How the service's own suggestions fared: GET accuracy, and the same reports for /metrics. */
import { heldWindows } from '../feed/feeds'
import { feePolicyOf } from '../chains/registry'
import { accuracyOf, windowPieceAccuracy, type AccuracyReport } from '../core/evaluation/accuracy'
import { processSingleton } from '../runtime/process-singleton'
import { windowPolicy } from '../core/fee-math/window-policy'
import type { FeeWindow, LevelEstimate, PendingPieces, SeenPiece, Urgency } from '../core/types'
import type { ChainFeePolicy } from '../core/chain-rules/chain-policy'
import { perWindow, servedWindow, type ReportMeta } from './served-window'

/** Per chain, the last accuracy report computed and when (for /metrics, which never waits for a new one). */
const lastAccuracy = processSingleton('accuracy-last', () => new Map<number, { report: AccuracyReport; at: number }>())
/** /metrics computes a chain's accuracy at most this often; /accuracy once per window. */
const METRICS_ACCURACY_PERIOD_MS = 60_000

/** The accuracy report of a sealed window, computed once per window and kept with it. */
const accuracyFor = perWindow('accuracy-reports', (window, policy) => {
  // the levels as served: the head's rules (Linea's tip floor) on top of what accuracyOf reads itself
  const report = accuracyOf(window, windowPolicy(policy, window))
  lastAccuracy.set(window.chainId, { report, at: Date.now() })
  return report
})

/** The report of a chain without pieces, serialised once per window. */
const reportFor = perWindow('accuracy-bodies', (window, policy) => {
  const report: AccuracyReport = accuracyFor(window, policy)
  return { report, body: JSON.stringify(report) }
})

/**
 * How the service's own suggestions fared over the window it serves (lib/core/evaluation/accuracy.ts), and on a
 * flashblocks chain per piece over the pieces its feed followed.
 * @throws as getFeeReport
 */
export async function getAccuracyReport(chainId: number): Promise<{ body: string; report: AccuracyReport; meta: ReportMeta }> {
  const { window, policy, meta, pieces } = await servedWindow(chainId, { feeMarket: true })
  if (!pieces) return { ...reportFor(window, policy), meta }
  return { ...withPieces(window, policy, pieces.sealedOf(window), pieces.seen()), meta }
}

/** Each followed piece's suggestion, made once (its view object is the key, dropped with the feed's history). */
const pieceSuggestions = processSingleton('accuracy-piece-suggestions', () => new WeakMap<PendingPieces, Record<Urgency, LevelEstimate>>())

/** A flashblocks chain's report: the sealed window's, computed once per block, with the pieces' once per piece. */
const withPieces = (() => {
  const memo = processSingleton('accuracy-piece-bodies', () => new WeakMap<FeeWindow, { report: AccuracyReport; body: string }>())
  return (window: FeeWindow, policy: ChainFeePolicy, sealed: FeeWindow, seen: readonly SeenPiece[]) => {
    let value = memo.get(window)
    if (!value) {
      const report: AccuracyReport = { ...accuracyFor(sealed, policy), pieces: windowPieceAccuracy(sealed, policy, seen, pieceSuggestions) }
      memo.set(window, (value = { report, body: JSON.stringify(report) }))
    }
    return value
  }
})()

/** Per held window, its accuracy for /metrics (no read): the last report, recomputed when over a minute old. */
export function heldAccuracy(now = Date.now()): AccuracyReport[] {
  return heldWindows().flatMap(({ chain, window }) => {
    if (window.legacy) return []
    const last = lastAccuracy.get(chain.id)
    if (last && now - last.at < METRICS_ACCURACY_PERIOD_MS) return [last.report]
    return [accuracyFor(window, feePolicyOf(chain))]
  })
}
