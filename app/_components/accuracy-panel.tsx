'use client'
import useSWR from 'swr'
import { AccuracyReportSchema, type AccuracyReportBody } from '@/lib/core/contract/schemas'
import { fetchApi } from './api-client'
import { formatBlocks, formatShare } from './format'
import { describeError, Skeleton } from './states'

const LEVELS = ['low', 'medium', 'high'] as const

/** The accuracy changes by one block's trial per block: about every 10 blocks is often enough (10 s … 60 s). */
function refreshInterval(latest?: { data: AccuracyReportBody }): number {
  return Math.min(60_000, Math.max(10_000, 10 * (latest?.data.blockIntervalMs ?? 3_000)))
}

/** GET /networks/{chainId}/accuracy, validated; shared by the panel and the view (it tells the block interval). */
export function useAccuracy(chainId: number) {
  return useSWR(['accuracy', chainId], () => fetchApi(`/networks/${chainId}/accuracy`, AccuracyReportSchema), {
    refreshInterval,
    refreshWhenOffline: true,
    keepPreviousData: true,
  })
}

/**
 * How the service's own suggestions fared over the window it serves, per level ("medium got in within its
 * promise in 97.2% of the last 480 blocks").
 */
export function AccuracyPanel({ chainId }: { chainId: number }) {
  const { data, error } = useAccuracy(chainId)
  const report = data?.data
  return (
    <section aria-labelledby="accuracy-heading">
      <h2 id="accuracy-heading" className="text-lg font-semibold">
        How accurate these suggestions were
      </h2>
      <div
        className="mt-3 rounded-xl border border-slate-300 p-4 dark:border-slate-700"
        data-testid="accuracy"
        data-head-block={report?.window.headBlock}
        data-oldest-block={report?.window.oldestBlock}
      >
        {report ? (
          <>
            <ul className="space-y-2">
              {LEVELS.map((level) => {
                const a = report.levels[level]
                return (
                  <li
                    key={level}
                    data-testid={`accuracy-${level}`}
                    data-trials={a.trials}
                    data-value={a.includedWithinPromise ?? undefined}
                    data-median-wait={a.medianWaitBlocks ?? undefined}
                  >
                    {a.trials === 0 || a.includedWithinPromise === null ? (
                      <>
                        <span className="font-semibold capitalize">{level}</span>: not enough blocks judged yet.
                      </>
                    ) : (
                      <>
                        <span className="font-semibold capitalize">{level}</span> got in within its promise (
                        {formatBlocks(a.promisedBlocks)}) in{' '}
                        <span className="font-semibold tabular-nums" data-testid={`accuracy-${level}-share`}>
                          {formatShare(a.includedWithinPromise)}
                        </span>{' '}
                        of the last <span className="tabular-nums">{a.trials}</span> blocks
                        <span className="text-slate-600 dark:text-slate-400">
                          {' '}
                          · aims for {formatShare(a.targetInclusion)}
                          {a.medianWaitBlocks !== null ? ` · median wait ${formatBlocks(a.medianWaitBlocks)}` : ''}
                        </span>
                      </>
                    )}
                  </li>
                )
              })}
            </ul>
            {report.pieces?.judgedPieces ? <PieceAccuracy pieces={report.pieces} /> : null}
            <p className="mt-3 text-xs text-slate-600 dark:text-slate-400">
              Each block&apos;s suggestion judged on the blocks after it, in blocks {report.window.oldestBlock}–{report.window.headBlock} (
              {report.judge.name} judge: {report.judge.description})
            </p>
          </>
        ) : error ? (
          // not an alert: the fee numbers' own error state is the one that speaks for the chain
          <p className="text-sm" data-testid="accuracy-error">
            Accuracy not available: {describeError(error).detail}
          </p>
        ) : (
          <Skeleton className="h-20 w-full" />
        )}
      </div>
    </section>
  )
}

/** On a flashblocks chain: the same judged per piece, over the pieces the service followed. */
function PieceAccuracy({ pieces }: { pieces: NonNullable<AccuracyReportBody['pieces']> }) {
  const piecesText = (n: number) => `${n} ${n === 1 ? 'piece' : 'pieces'}`
  return (
    <div className="mt-3 border-t border-slate-200 pt-3 dark:border-slate-800" data-testid="accuracy-pieces">
      <p className="text-sm font-semibold">Per piece ({pieces.cadenceMs} ms each)</p>
      <ul className="mt-1 space-y-1 text-sm">
        {LEVELS.map((level) => {
          const a = pieces.levels[level]
          if (a.includedWithinPromise === null) return null
          return (
            <li key={level} data-testid={`accuracy-pieces-${level}`} data-trials={a.trials} data-value={a.includedWithinPromise}>
              <span className="font-semibold capitalize">{level}</span> got in within {piecesText(a.promisedPieces)} in{' '}
              <span className="font-semibold tabular-nums">{formatShare(a.includedWithinPromise)}</span> of the last{' '}
              <span className="tabular-nums">{a.trials}</span> pieces
              <span className="text-slate-600 dark:text-slate-400"> · aims for {formatShare(a.targetInclusion)}</span>
            </li>
          )
        })}
      </ul>
    </div>
  )
}
