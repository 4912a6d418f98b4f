'use client'
import './zod-without-eval'
import useSWRSubscription, { type SWRSubscriptionOptions } from 'swr/subscription'
import { AccuracyPanel, useAccuracy } from './accuracy-panel'
import { BlobPanel } from './blob-panel'
import { loadChain, type ChainData } from './chain-data'
import { CongestionGauge } from './congestion-gauge'
import { CostPanel, type NativeCurrency } from './cost-panel'
import { FeeChart } from './fee-chart'
import { congestionLevel, formatAge, formatWait } from './format'
import { Gwei } from './gwei'
import { formatPieceWait, PiecesNote } from './pieces-note'
import { subscribeChainFeed } from './live-feed'
import { ErrorState, Skeleton } from './states'
import { useNow } from './use-now'
import { useActionCosts } from './use-action-costs'

const LEVELS = [
  ['low', 'Low', 'Cheapest; can wait'],
  ['medium', 'Medium', 'The usual choice'],
  ['high', 'High', 'Fastest inclusion'],
] as const

/** The chain's live numbers: its stream, or polling while the stream is down (./live-feed.ts). Module-level: one identity. */
function subscribe([, chainId]: readonly [string, number], { next }: SWRSubscriptionOptions<ChainData, unknown>) {
  return subscribeChainFeed(chainId, next, {
    openStream: (url) => new EventSource(url),
    load: (id) => loadChain(id),
    now: () => Date.now(),
  })
}

/** The live fee view of one chain. */
export function ChainView({ chainId, name, nativeCurrency }: { chainId: number; name: string; nativeCurrency: NativeCurrency }) {
  const { data: live, error } = useSWRSubscription<ChainData, unknown, readonly [string, number]>(
    ['chain-live', chainId] as const,
    subscribe,
  )
  const { data: accuracy } = useAccuracy(chainId)
  const whole = useActionCosts(chainId)
  const now = useNow()
  // the stream does not send the block interval: the accuracy report (same window) tells it
  const data =
    live && live.source === 'stream' && accuracy
      ? { ...live, freshness: { ...live.freshness, blockIntervalMs: accuracy.data.blockIntervalMs } }
      : live

  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-semibold sm:text-3xl">{name}</h1>
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          Chain {chainId} · fees in gwei ·{' '}
          <span data-testid="feed-source" data-value={data?.source}>
            {data?.source === 'polling' ? 'polled about once per block (the live stream is unavailable)' : 'live, pushed each block'}
          </span>
        </p>
        <StatusLine data={data} error={error} now={now} />
      </div>

      {error && !data ? <ErrorState error={error} /> : null}

      <section aria-labelledby="levels-heading">
        <h2 id="levels-heading" className="text-lg font-semibold">
          Suggested fees
        </h2>
        {data?.fees.pending ? <PiecesNote pending={data.fees.pending} /> : null}
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
                        {data?.fees.pending
                          ? formatPieceWait(level.minWaitTimeEstimate, level.maxWaitTimeEstimate, data.fees.pending.cadenceMs)
                          : formatWait(level.minWaitTimeEstimate, level.maxWaitTimeEstimate)}
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

      <section aria-labelledby="costs-heading">
        <h2 id="costs-heading" className="text-lg font-semibold">
          What common actions cost now
        </h2>
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          In {nativeCurrency.symbol}, per level: the likely cost at the next base fee, and the most it can cost (max fee).
        </p>
        <div className="mt-3">
          {data ? <CostPanel fees={data.fees} currency={nativeCurrency} whole={whole} /> : <Skeleton className="h-32 w-full" />}
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

      {data?.blobFees ? <BlobPanel blob={data.blobFees} /> : null}

      <section aria-labelledby="history-heading">
        <h2 id="history-heading" className="text-lg font-semibold">
          Base fee, last {data?.history.length ?? 500} blocks and the next {data?.forecast.horizons.length ?? 10}
        </h2>
        <div className="mt-3 rounded-xl border border-slate-300 p-4 dark:border-slate-700">
          {data ? (
            <FeeChart
              history={data.history}
              headBlock={data.freshness.blockNumber}
              p50={data.p50}
              busy={data.busy}
              fees={data.fees}
              forecast={data.forecast}
            />
          ) : (
            <Skeleton className="h-48 w-full" />
          )}
        </div>
      </section>

      <AccuracyPanel chainId={chainId} />
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
      {/* only the state is a live region: the block and the age change every block and every second */}
      <p className="text-sm">
        Block{' '}
        <span data-testid="block-number" className="font-mono">
          {data.freshness.blockNumber}
        </span>{' '}
        · data <span data-testid="data-age">{formatAge(age)}</span> old ·{' '}
        <span
          data-testid="live-state"
          aria-live="polite"
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
