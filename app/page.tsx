import { getChains } from '@/lib/chains/registry'

export const dynamic = 'force-dynamic'

const ENDPOINTS = ['suggestedGasFees', 'busyThreshold', 'baseFeePercentile', 'baseFeeHistory'] as const

/** Landing page: the supported chains and their API endpoints. */
export default function Home() {
  const chains = [...getChains().values()]
  return (
    <main className="mx-auto max-w-3xl p-6">
      <h1 className="text-2xl font-semibold">Gas API</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-300">EIP-1559 fee estimates, in gwei, for these chains:</p>
      <ul className="mt-4 space-y-3">
        {chains.map((chain) => (
          <li key={chain.id}>
            <h2 className="font-medium">
              {chain.name} <span className="text-slate-500">({chain.id})</span>
            </h2>
            <ul className="ml-4 list-disc text-sm">
              {ENDPOINTS.map((e) => (
                <li key={e}>
                  <a className="text-blue-700 underline dark:text-blue-300" href={`/networks/${chain.id}/${e}`}>
                    /networks/{chain.id}/{e}
                  </a>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </main>
  )
}
