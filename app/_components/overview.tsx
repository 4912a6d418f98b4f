'use client'
import './zod-without-eval'
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import Link from 'next/link'
import { useState } from 'react'
import { ApiError } from './api-client'
import { fetchSuggestedGasFeesOf, type ChainAnswer } from './chains-client'
import { formatAge, formatPercent } from './format'
import { Gwei } from './gwei'
import { describeError, Skeleton } from './states'
import { useNow } from './use-now'

export type ChainSummary = { id: number; name: string }

/** Every supported chain at a glance, from one multi-chain call (GET /v1/suggestedGasFees) about once per block. */
export function Overview({ chains }: { chains: ChainSummary[] }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: true } } }))
  return (
    <QueryClientProvider client={client}>
      <OverviewTable chains={chains} />
    </QueryClientProvider>
  )
}

/** Until the next call: the shortest block interval among the chains that answered, 2 s to 60 s (5 s before any). */
function refetchMs(answers: Map<number, ChainAnswer> | undefined): number {
  const intervals = [...(answers?.values() ?? [])].flatMap((a) => ('data' in a ? [a.freshness.blockIntervalMs] : []))
  return Math.min(60_000, Math.max(2_000, intervals.length > 0 ? Math.min(...intervals) : 5_000))
}

function OverviewTable({ chains }: { chains: ChainSummary[] }) {
  const now = useNow()
  const ids = chains.map((chain) => chain.id)
  const { data: answers, error: callError } = useQuery({
    queryKey: ['suggestedGasFees', ids],
    queryFn: () => fetchSuggestedGasFeesOf(ids),
    // again when the fastest chain's next block is due
    refetchInterval: (query: { state: { data?: Map<number, ChainAnswer> } }) => refetchMs(query.state.data),
  })
  return (
    <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="chain-list">
      {chains.map((chain) => {
        const answer = answers?.get(chain.id)
        const data = answer && 'data' in answer ? answer : undefined
        // the chain's own failure, or the whole call's (then its last numbers stay, marked)
        const error = answer && 'error' in answer ? answer.error : callError
        const isPending = answers === undefined && callError === null
        const age = data ? data.freshness.ageAtFetch + (now - data.freshness.receivedAt) / 1000 : 0
        // as the chain view: numbers older than three blocks (10 s at least), and not marked stale, are said to be
        const behind = data !== undefined && !data.freshness.stale && age > Math.max(10, (3 * data.freshness.blockIntervalMs) / 1000)
        return (
          <li key={chain.id} data-testid={`chain-${chain.id}`}>
            <Link
              href={`/networks/${chain.id}`}
              // a prefetch renders the page, which counts against the visitor's quota (keyless: PUBLIC_RATE_LIMIT):
              // only a chain actually opened is rendered
              prefetch={false}
              className="block h-full rounded-xl border border-slate-300 p-4 hover:border-teal-600 focus-visible:outline-2 focus-visible:outline-teal-600 dark:border-slate-700 dark:hover:border-teal-400"
            >
              <h2 className="font-semibold">
                {chain.name} <span className="text-sm font-normal text-slate-600 dark:text-slate-400">· {chain.id}</span>
              </h2>
              {data ? (
                <dl className="mt-3 grid grid-cols-3 gap-2 text-sm">
                  <div>
                    <dt className="text-xs text-slate-600 dark:text-slate-400">Medium max fee</dt>
                    <dd className="font-semibold">
                      <Gwei value={data.data.medium.suggestedMaxFeePerGas} testId="medium-max-fee" />
                    </dd>
                  </div>
                  <div>
                    <dt className="text-xs text-slate-600 dark:text-slate-400">Base fee</dt>
                    <dd>
                      <Gwei value={data.data.estimatedBaseFee} testId="base-fee" />
                    </dd>
                  </div>
                  <div>
                    <dt className="text-xs text-slate-600 dark:text-slate-400">Congestion</dt>
                    <dd data-testid="congestion" data-value={data.data.networkCongestion}>
                      {formatPercent(data.data.networkCongestion)}
                    </dd>
                  </div>
                  <p
                    data-testid="card-state"
                    className={`col-span-3 text-xs ${data.freshness.stale || error || behind ? 'font-semibold text-red-800 dark:text-red-300' : 'text-slate-600 dark:text-slate-400'}`}
                  >
                    Block {data.freshness.blockNumber} · {formatAge(age)} old{data.freshness.stale ? ' · stale' : ''}
                    {error ? ' · refresh failing' : behind ? ' · not updating' : ''}
                  </p>
                </dl>
              ) : isPending ? (
                <div className="mt-3 space-y-2" aria-busy="true">
                  <Skeleton className="h-5 w-full" />
                  <Skeleton className="h-4 w-2/3" />
                </div>
              ) : (
                <p
                  role="alert"
                  data-status={error instanceof ApiError ? error.status : undefined}
                  className="mt-3 text-sm text-red-800 dark:text-red-300"
                >
                  {describeError(error).title}: {describeError(error).detail}
                </p>
              )}
            </Link>
          </li>
        )
      })}
    </ul>
  )
}
