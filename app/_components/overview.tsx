'use client'
import './zod-without-eval'
import { QueryClient, QueryClientProvider, useQueries } from '@tanstack/react-query'
import Link from 'next/link'
import { useState } from 'react'
import { SuggestedGasFeesSchema } from '@/lib/core/contract/schemas'
import { ApiError, fetchApi } from './api-client'
import { formatAge, formatPercent } from './format'
import { Gwei } from './gwei'
import { describeError, Skeleton } from './states'
import { useNow } from './use-now'

export type ChainSummary = { id: number; name: string }

/** Every supported chain at a glance; TanStack Query fetches them in parallel (useQueries). */
export function Overview({ chains }: { chains: ChainSummary[] }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: true } } }))
  return (
    <QueryClientProvider client={client}>
      <OverviewTable chains={chains} />
    </QueryClientProvider>
  )
}

function OverviewTable({ chains }: { chains: ChainSummary[] }) {
  const now = useNow()
  const results = useQueries({
    queries: chains.map((chain) => ({
      queryKey: ['suggestedGasFees', chain.id],
      queryFn: () => fetchApi(`/networks/${chain.id}/suggestedGasFees`, SuggestedGasFeesSchema),
      refetchInterval: (query: { state: { data?: { freshness: { blockIntervalMs: number } } } }) =>
        Math.min(60_000, Math.max(2_000, query.state.data?.freshness.blockIntervalMs ?? 5_000)),
    })),
  })
  return (
    <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="chain-list">
      {chains.map((chain, i) => {
        // useQueries answers one result per query, in the order of `chains`
        const result = results[i]
        if (!result) throw new Error(`no query result for chain ${chain.id}`)
        const { data, error, isPending } = result
        const age = data ? data.freshness.ageAtFetch + (now - data.freshness.receivedAt) / 1000 : 0
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
                  <p className="col-span-3 text-xs text-slate-600 dark:text-slate-400">
                    Block {data.freshness.blockNumber} · {formatAge(age)} old{data.freshness.stale ? ' · stale' : ''}
                    {error ? ' · refresh failing' : ''}
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
