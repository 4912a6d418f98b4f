import { parseGwei } from '@/lib/core/units'
import { formatGweiShort } from './format'

const W = 600
const H = 200
const PAD = { left: 8, right: 8, top: 10, bottom: 10 }

/**
 * The base fee history as an SVG line (one point per block, oldest on the left) with the 50th
 * percentile and busy threshold drawn across it. Our own component: one polyline and two lines
 * need no chart library.
 */
export function FeeChart({ history, p50, busy }: { history: string[]; p50: string; busy: string }) {
  const oldest = history[0]
  const newest = history.at(-1)
  if (oldest === undefined || newest === undefined) return null
  const values = history.map((g) => Number(parseGwei(g)))
  const p50Value = Number(parseGwei(p50))
  const busyValue = Number(parseGwei(busy))
  const refs = [p50Value, busyValue]
  const lo = Math.min(...values, ...refs)
  const hi = Math.max(...values, ...refs)
  const span = hi - lo || 1
  const x = (i: number) => PAD.left + (values.length === 1 ? 0 : (i / (values.length - 1)) * (W - PAD.left - PAD.right))
  const y = (v: number) => PAD.top + (1 - (v - lo) / span) * (H - PAD.top - PAD.bottom)
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ')
  const label = `Base fee over the last ${history.length} blocks, from ${formatGweiShort(oldest)} to ${formatGweiShort(newest)} gwei; 50th percentile ${formatGweiShort(p50)} gwei, busy threshold ${formatGweiShort(busy)} gwei.`
  return (
    <figure className="w-full">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} className="h-48 w-full sm:h-56" preserveAspectRatio="none">
        <line
          x1={PAD.left}
          x2={W - PAD.right}
          y1={y(busyValue)}
          y2={y(busyValue)}
          className="stroke-red-600 dark:stroke-red-400"
          strokeDasharray="6 4"
          strokeWidth={1.5}
          vectorEffect="non-scaling-stroke"
          data-line="busy"
        />
        <line
          x1={PAD.left}
          x2={W - PAD.right}
          y1={y(p50Value)}
          y2={y(p50Value)}
          className="stroke-slate-500 dark:stroke-slate-400"
          strokeDasharray="2 4"
          strokeWidth={1.5}
          vectorEffect="non-scaling-stroke"
          data-line="p50"
        />
        <polyline
          points={points}
          fill="none"
          className="stroke-teal-700 dark:stroke-teal-300"
          strokeWidth={2}
          vectorEffect="non-scaling-stroke"
          strokeLinejoin="round"
          data-testid="history-line"
        />
      </svg>
      <figcaption className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700 dark:text-slate-300">
        <span>
          <span aria-hidden="true" className="mr-1 inline-block h-0.5 w-4 align-middle bg-teal-700 dark:bg-teal-300" />
          base fee ({history.length} blocks, oldest left)
        </span>
        <span>
          <span aria-hidden="true" className="mr-1 inline-block h-0.5 w-4 align-middle bg-slate-500" />
          50th percentile {formatGweiShort(p50)} gwei
        </span>
        <span>
          <span aria-hidden="true" className="mr-1 inline-block h-0.5 w-4 align-middle bg-red-600" />
          busy threshold {formatGweiShort(busy)} gwei
        </span>
      </figcaption>
    </figure>
  )
}
