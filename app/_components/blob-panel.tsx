import type { BlobFeesBody } from '@/lib/core/contract/schemas'
import { BlobFan } from './blob-fan'
import { formatPercent } from './format'
import { Gwei } from './gwei'

/** The forecast's horizons the panel shows (blocks ahead). */
const SHOWN_HORIZONS = [1, 2, 5, 10]
const COLUMNS = ['p50', 'p90', 'p99', 'bound'] as const

const LEVELS = [
  ['low', 'Low'],
  ['medium', 'Medium'],
  ['high', 'High'],
] as const

/**
 * Blob fees (EIP-4844) of the same block as the rest of the view: the next block's blob base fee and
 * each level's maxFeePerBlobGas, with the head fork's blob target and maximum and the latest block's
 * blob fullness. Shown only on chains with blobs (the stream's `blobFees`, or GET blobFees while polling).
 */
export function BlobPanel({ blob }: { blob: BlobFeesBody }) {
  const latest = blob.blobGasUsedRatio.at(-1)
  return (
    <section aria-labelledby="blob-heading" data-testid="blob-panel" data-block={blob.blockNumber}>
      <h2 id="blob-heading" className="text-lg font-semibold">
        Blob fees
      </h2>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        Per blob gas, for blob (EIP-4844) transactions: <code>maxFeePerBlobGas</code> per level; only the blob base fee is paid.
      </p>
      <div className="mt-3 grid grid-cols-1 gap-4 md:grid-cols-4">
        <article className="rounded-xl border border-slate-300 p-4 dark:border-slate-700">
          <h3 className="font-semibold">Next blob base fee</h3>
          <p className="mt-2 text-2xl font-semibold">
            <Gwei value={blob.estimatedBlobBaseFee} testId="blob-base-fee" />
          </p>
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400" data-testid="blob-capacity">
            {latest === undefined ? '' : `last block ${formatPercent(latest)} full · `}target {blob.blobTarget}, max {blob.blobMax} blobs
          </p>
        </article>
        {LEVELS.map(([key, title]) => (
          <article key={key} className="rounded-xl border border-slate-300 p-4 dark:border-slate-700">
            <h3 className="font-semibold">{title}</h3>
            <p className="mt-2 text-xs uppercase tracking-wide text-slate-600 dark:text-slate-400">Max fee per blob gas</p>
            <p className="text-lg">
              <Gwei value={blob[key].suggestedMaxFeePerBlobGas} testId={`blob-${key}`} />
            </p>
          </article>
        ))}
      </div>
      <BlobFan forecast={blob.forecast} />
      {/* its own horizontal scroll on narrow screens: five columns of gwei do not fit 320 px */}
      <div className="mt-4 max-w-full overflow-x-auto">
        <table className="w-full text-xs sm:text-sm" data-testid="blob-forecast" data-method={blob.forecast.method}>
          <caption className="pb-1 text-left font-semibold">
            Blob base fee forecast{blob.forecast.method === 'bound' ? ' (window too short: the protocol bound)' : ''}
          </caption>
          <thead>
            <tr className="text-left text-slate-600 dark:text-slate-400">
              {['Block', 'p50', 'p90', 'p99', 'Bound'].map((name) => (
                <th key={name} scope="col" className="py-1 pr-3">
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {blob.forecast.horizons
              .filter((h) => SHOWN_HORIZONS.includes(h.blocks))
              .map((h) => (
                <tr key={h.blocks}>
                  <th scope="row" className="py-1 pr-3 text-left font-normal">
                    +{h.blocks}
                  </th>
                  {COLUMNS.map((c) => (
                    <td key={c} className="py-1 pr-3 whitespace-nowrap">
                      <Gwei value={h[c]} testId={`blob-forecast-${h.blocks}-${c}`} />
                    </td>
                  ))}
                </tr>
              ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}
