import { Overview } from './_components/overview'
import { getChains } from '@/lib/chains/registry'

export const dynamic = 'force-dynamic'

/** Overview of every supported chain, each linking to its live view. */
export default function Home() {
  const chains = [...getChains().values()].map(({ id, name }) => ({ id, name }))
  return (
    <>
      <h1 className="text-2xl font-semibold sm:text-3xl">Gas fees now</h1>
      <p className="mt-1 mb-6 text-sm text-slate-700 dark:text-slate-300">
        Medium-urgency max fee, next base fee and congestion for every supported chain, in gwei.
      </p>
      {chains.length ? <Overview chains={chains} /> : <p>No chains are configured. Set RPC_URL_&lt;chainId&gt;.</p>}
    </>
  )
}
