import { formatGweiShort } from './format'

/** A gwei amount, shortened for reading; the exact API value stays in data-value and the tooltip. */
export function Gwei({ value, testId }: { value: string; testId?: string }) {
  return (
    <span data-value={value} data-testid={testId} title={`${value} gwei`} className="tabular-nums">
      {formatGweiShort(value)}
      <span className="ml-1 text-[0.8em] font-normal text-slate-600 dark:text-slate-400">gwei</span>
    </span>
  )
}
