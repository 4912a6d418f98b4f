import type { Congestion } from './format'
import { formatPercent } from './format'

const STYLE: Record<Congestion, { bar: string; text: string }> = {
  quiet: { bar: 'bg-emerald-600 dark:bg-emerald-400', text: 'text-emerald-800 dark:text-emerald-300' },
  normal: { bar: 'bg-amber-500 dark:bg-amber-400', text: 'text-amber-900 dark:text-amber-300' },
  busy: { bar: 'bg-red-600 dark:bg-red-400', text: 'text-red-800 dark:text-red-300' },
}

/** networkCongestion as a bar with its word (quiet / normal / busy, from the API's thresholds). */
export function CongestionGauge({ value, level }: { value: number; level: Congestion }) {
  return (
    <div>
      <div className="flex items-baseline justify-between">
        <span className={`text-lg font-semibold capitalize ${STYLE[level].text}`} data-testid="congestion-word">
          {level}
        </span>
        <span className="tabular-nums text-sm text-slate-700 dark:text-slate-300" data-testid="congestion" data-value={value}>
          {formatPercent(value)}
        </span>
      </div>
      <div
        role="meter"
        aria-label="Network congestion"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(value * 100)}
        aria-valuetext={`${level}, ${formatPercent(value)}`}
        className="mt-2 h-2.5 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
      >
        <div className={`h-full ${STYLE[level].bar}`} style={{ width: `${Math.max(2, value * 100)}%` }} />
      </div>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        Share of the last 500 blocks whose base fee was at or below the next one. Busy above 90%.
      </p>
    </div>
  )
}
