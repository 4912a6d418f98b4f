'use client'
import './zod-without-eval'
import useSWR, { type SWRConfiguration } from 'swr'
import {
  BaseFeeHistorySchema,
  BaseFeePercentileSchema,
  BusyThresholdSchema,
  SuggestedGasFeesSchema,
  type SuggestedGasFees,
} from '@/lib/core/schemas'
import { ApiError, fetchApi, type Freshness } from './api-client'
import { CongestionGauge } from './congestion-gauge'
import { FeeChart } from './fee-chart'
import { congestionLevel, formatAge, formatWait } from './format'
import { Gwei } from './gwei'
import { ErrorState, Skeleton } from './states'
import { useNow } from './use-now'

type ChainData = {
  fees: SuggestedGasFees
  p50: string
  busy: string
  history: string[]
  freshness: Freshness
}

/** The four endpoints of one chain, read in parallel over HTTP like any client would. */
async function loadChain(chainId: number): Promise<ChainData> {
  const base = `/networks/${chainId}`
  const [fees, p50, busy, history] = await Promise.all([
    fetchApi(`${base}/suggestedGasFees`, SuggestedGasFeesSchema),
    fetchApi(`${base}/baseFeePercentile`, BaseFeePercentileSchema),
    fetchApi(`${base}/busyThreshold`, BusyThresholdSchema),
    fetchApi(`${base}/baseFeeHistory`, BaseFeeHistorySchema),
  ])
  return {
    fees: fees.data,
    p50: p50.data.baseFeePercentile,
    busy: busy.data.busyThreshold,
    history: history.data,
    freshness: { ...fees.freshness, stale: fees.freshness.stale || history.freshness.stale },
  }
}

const LEVELS = [
  ['low', 'Low', 'Cheapest; can wait'],
  ['medium', 'Medium', 'The usual choice'],
  ['high', 'High', 'Fastest inclusion'],
] as const

/** About one block interval, within [1 s, 60 s]. Module-level: SWR restarts polling when this changes identity. */
function refreshInterval(latest?: ChainData): number {
  return Math.min(60_000, Math.max(1_000, latest?.freshness.blockIntervalMs ?? 2_000))
}

/**
 * SWR does not poll while the last read failed, so a failure is retried here: never for 400/401
 * (retrying cannot help), otherwise after Retry-After or 2 s, whichever is longer (30 s at most).
 */
const onErrorRetry: SWRConfiguration['onErrorRetry'] = (error, _key, _config, revalidate, { retryCount }) => {
  if (error instanceof ApiError && (error.status === 400 || error.status === 401)) return
  const retryAfterMs = error instanceof ApiError && error.retryAfterSeconds ? error.retryAfterSeconds * 1000 : 0
  setTimeout(() => void revalidate({ retryCount }), Math.min(30_000, Math.max(2_000, retryAfterMs)))
}

/** The live fee view of one chain: SWR re-reads it about once per block. */
export function ChainView({ chainId, name }: { chainId: number; name: string }) {
  const { data, error } = useSWR(['chain', chainId], () => loadChain(chainId), {
    refreshInterval,
    refreshWhenOffline: true, // the service may be on this machine; the browser's online flag is not our signal
    revalidateOnFocus: true,
    keepPreviousData: true,
    onErrorRetry,
  })
  const now = useNow()

  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-semibold sm:text-3xl">{name}</h1>
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">Chain {chainId} · fees in gwei · refreshed about once per block</p>
        <StatusLine data={data} error={error} now={now} />
      </div>

      {error && !data ? <ErrorState error={error} /> : null}

      <section aria-labelledby="levels-heading">
        <h2 id="levels-heading" className="text-lg font-semibold">
          Suggested fees
        </h2>
        <div className="mt-3 grid grid-cols-1 gap-4 md:grid-cols-3">
          {LEVELS.map(([key, title, hint]) => {
            const level = data?.fees[key]
            return (
              <article
                key={key}
                data-testid={`level-${key}`}
                className={`rounded-xl border p-4 ${key === 'medium' ? 'border-teal-600 dark:border-teal-400' : 'border-slate-300 dark:border-slate-700'}`}
              >
                <h3 className="font-semibold">
                  {title} <span className="text-sm font-normal text-slate-600 dark:text-slate-400">· {hint}</span>
                </h3>
                {level ? (
                  <dl className="mt-3 space-y-2">
                    <div>
                      <dt className="text-xs uppercase tracking-wide text-slate-600 dark:text-slate-400">Max fee</dt>
                      <dd className="text-2xl font-semibold">
                        <Gwei value={level.suggestedMaxFeePerGas} testId={`${key}-max-fee`} />
                      </dd>
                    </div>
                    <div>
                      <dt className="text-xs uppercase tracking-wide text-slate-600 dark:text-slate-400">Priority fee</dt>
                      <dd className="text-lg">
                        <Gwei value={level.suggestedMaxPriorityFeePerGas} testId={`${key}-priority-fee`} />
                      </dd>
                    </div>
                    <div>
                      <dt className="text-xs uppercase tracking-wide text-slate-600 dark:text-slate-400">Expected wait</dt>
                      <dd data-testid={`${key}-wait`} data-min={level.minWaitTimeEstimate} data-max={level.maxWaitTimeEstimate}>
                        {formatWait(level.minWaitTimeEstimate, level.maxWaitTimeEstimate)}
                      </dd>
                    </div>
                  </dl>
                ) : (
                  <div className="mt-3 space-y-3" aria-busy="true">
                    <Skeleton className="h-8 w-32" />
                    <Skeleton className="h-6 w-24" />
                    <Skeleton className="h-5 w-20" />
                  </div>
                )}
              </article>
            )
          })}
        </div>
      </section>

      <section aria-labelledby="network-heading" className="grid grid-cols-1 gap-4 md:grid-cols-3">
        <h2 id="network-heading" className="sr-only">
          Network
        </h2>
        <article className="rounded-xl border border-slate-300 p-4 dark:border-slate-700">
          <h3 className="font-semibold">Next base fee</h3>
          {data ? (
            <p className="mt-2 text-2xl font-semibold">
              <Gwei value={data.fees.estimatedBaseFee} testId="base-fee" />{' '}
              <Trend direction={data.fees.baseFeeTrend} testId="base-fee-trend" />
            </p>
          ) : (
            <Skeleton className="mt-2 h-8 w-40" />
          )}
        </article>
        <article className="rounded-xl border border-slate-300 p-4 dark:border-slate-700">
          <h3 className="font-semibold">Congestion</h3>
          <div className="mt-2">
            {data ? (
              <CongestionGauge
                value={data.fees.networkCongestion}
                level={congestionLevel(data.fees.estimatedBaseFee, data.p50, data.busy)}
              />
            ) : (
              <Skeleton className="h-10 w-full" />
            )}
          </div>
        </article>
        <article className="rounded-xl border border-slate-300 p-4 dark:border-slate-700">
          <h3 className="font-semibold">
            Priority fees{' '}
            <span className="text-sm font-normal">
              {' '}
              {data ? <Trend direction={data.fees.priorityFeeTrend} testId="priority-fee-trend" /> : null}
            </span>
          </h3>
          {data ? (
            <dl className="mt-2 space-y-1 text-sm">
              <div className="flex flex-wrap justify-between gap-x-2">
                <dt>Latest block</dt>
                <dd data-testid="latest-priority-range">
                  <Gwei value={data.fees.latestPriorityFeeRange[0]} /> – <Gwei value={data.fees.latestPriorityFeeRange[1]} />
                </dd>
              </div>
              <div className="flex flex-wrap justify-between gap-x-2">
                <dt>Last 500 blocks</dt>
                <dd data-testid="historical-priority-range">
                  <Gwei value={data.fees.historicalPriorityFeeRange[0]} /> – <Gwei value={data.fees.historicalPriorityFeeRange[1]} />
                </dd>
              </div>
            </dl>
          ) : (
            <Skeleton className="mt-2 h-10 w-full" />
          )}
        </article>
      </section>

      <section aria-labelledby="history-heading">
        <h2 id="history-heading" className="text-lg font-semibold">
          Base fee, last {data?.history.length ?? 500} blocks
        </h2>
        <div className="mt-3 rounded-xl border border-slate-300 p-4 dark:border-slate-700">
          {data ? <FeeChart history={data.history} p50={data.p50} busy={data.busy} /> : <Skeleton className="h-48 w-full" />}
        </div>
      </section>
    </div>
  )
}

function Trend({ direction, testId }: { direction: 'up' | 'down'; testId: string }) {
  return (
    <span
      data-testid={testId}
      data-value={direction}
      className={`text-base font-medium ${direction === 'up' ? 'text-red-700 dark:text-red-300' : 'text-emerald-700 dark:text-emerald-300'}`}
    >
      <span aria-hidden="true">{direction === 'up' ? '↑' : '↓'}</span> {direction === 'up' ? 'rising' : 'falling'}
    </span>
  )
}

/** Block number and age of the data; says plainly when the data is stale or the last refresh failed. */
function StatusLine({ data, error, now }: { data?: ChainData; error?: unknown; now: number }) {
  if (!data)
    return (
      <p className="mt-2 text-sm" aria-live="polite">
        {error ? 'No data yet.' : 'Loading…'}
      </p>
    )
  const age = data.freshness.ageAtFetch + (now - data.freshness.receivedAt) / 1000
  const behind = age > Math.max(10, (3 * data.freshness.blockIntervalMs) / 1000)
  const warn = data.freshness.stale || error || behind
  return (
    <div className="mt-2 space-y-2">
      <p className="text-sm" aria-live="polite">
        Block{' '}
        <span data-testid="block-number" className="font-mono">
          {data.freshness.blockNumber}
        </span>{' '}
        · data <span data-testid="data-age">{formatAge(age)}</span> old ·{' '}
        <span
          data-testid="live-state"
          className={warn ? 'font-semibold text-red-800 dark:text-red-300' : 'text-emerald-800 dark:text-emerald-300'}
        >
          {data.freshness.stale ? 'stale' : error ? 'refresh failing' : behind ? 'not updating' : 'live'}
        </span>
      </p>
      {data.freshness.stale ? (
        <p role="status" className="rounded-md bg-amber-100 p-2 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-100">
          The chain&apos;s node is failing; these are the last good numbers, from block {data.freshness.blockNumber}.
        </p>
      ) : null}
      {error ? <ErrorState error={error} compact /> : null}
    </div>
  )
}
