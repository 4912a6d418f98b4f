'use client'
import { useState, type KeyboardEvent, type PointerEvent } from 'react'
import type { SuggestedGasFees } from '@/lib/core/schemas'
import { formatGwei, parseGwei } from '@/lib/core/units'
import { blockTicks, indexAfterKey, indexAt, niceTicks } from './chart-scale'
import { formatGweiShort } from './format'

const W = 600
const H = 200
const PAD = { left: 0, right: 0, top: 8, bottom: 8 }
const PLOT_W = W - PAD.left - PAD.right

const LEVEL_LINES = [
  {
    key: 'high',
    label: 'high max fee',
    stroke: 'stroke-orange-600 dark:stroke-orange-400',
    swatch: 'bg-orange-600 dark:bg-orange-400',
    dash: '10 3',
  },
  {
    key: 'medium',
    label: 'medium max fee',
    stroke: 'stroke-violet-600 dark:stroke-violet-400',
    swatch: 'bg-violet-600 dark:bg-violet-400',
    dash: '10 3',
  },
  { key: 'low', label: 'low max fee', stroke: 'stroke-sky-600 dark:stroke-sky-400', swatch: 'bg-sky-600 dark:bg-sky-400', dash: '10 3' },
] as const

type Selection = { index: number; via: 'pointer' | 'key' }

/**
 * The base fee history as an SVG line (one point per block, oldest on the left, the newest being
 * `headBlock`) with axes in gwei and block numbers, the 50th percentile, the busy threshold and the
 * three levels' suggested max fees drawn across it, and a crosshair with a readout of the block under
 * the pointer, or of the block picked with the arrow keys. Our own component: a few lines need no
 * chart library. The lines are drawn in an SVG stretched to the box; the labels are HTML placed by
 * percentage, so text is never stretched.
 */
export function FeeChart({
  history,
  headBlock,
  p50,
  busy,
  fees,
}: {
  history: string[]
  headBlock: number
  p50: string
  busy: string
  fees: SuggestedGasFees
}) {
  const [selection, setSelection] = useState<Selection | undefined>()
  const oldest = history[0]
  const newest = history.at(-1)
  if (oldest === undefined || newest === undefined) return null
  const count = history.length
  const oldestBlock = headBlock - count + 1
  // layout only: wei as floating point positions the points; every label is formatted from exact values
  const values = history.map((g) => Number(parseGwei(g)))
  const p50Value = Number(parseGwei(p50))
  const busyValue = Number(parseGwei(busy))
  const levelValues = LEVEL_LINES.map((l) => Number(parseGwei(fees[l.key].suggestedMaxFeePerGas)))
  const lo = Math.min(...values, p50Value, busyValue, ...levelValues)
  const hi = Math.max(...values, p50Value, busyValue, ...levelValues)
  const span = hi - lo || 1
  const x = (i: number) => PAD.left + (count === 1 ? 0 : (i / (count - 1)) * PLOT_W)
  const y = (v: number) => PAD.top + (1 - (v - lo) / span) * (H - PAD.top - PAD.bottom)
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ')
  const yTicks = niceTicks(lo, hi, 4)
  const xTicks = blockTicks(oldestBlock, headBlock, 4)

  const selected = selection ? Math.min(selection.index, count - 1) : undefined
  const selectedBlock = selected === undefined ? undefined : oldestBlock + selected
  const selectedFee = selected === undefined ? undefined : history[selected]

  const label = `Base fee over the last ${count} blocks (${oldestBlock} to ${headBlock}), from ${formatGweiShort(oldest)} to ${formatGweiShort(newest)} gwei; 50th percentile ${formatGweiShort(p50)} gwei, busy threshold ${formatGweiShort(busy)} gwei.`
  const readout =
    selectedBlock !== undefined && selectedFee !== undefined
      ? `Block ${selectedBlock}, base fee ${formatGweiShort(selectedFee)} gwei`
      : undefined

  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const rect = e.currentTarget.getBoundingClientRect()
    if (rect.width <= 0) return
    const viewX = ((e.clientX - rect.left) / rect.width) * W
    setSelection({ index: indexAt((viewX - PAD.left) / PLOT_W, count), via: 'pointer' })
  }
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const to = indexAfterKey(e.key, selected, count)
    if (to === undefined) return
    e.preventDefault()
    setSelection({ index: to, via: 'key' })
  }

  return (
    <figure className="w-full">
      <div className="mb-2 flex items-end">
        <span aria-hidden="true" className="w-16 shrink-0 pr-2 text-right text-xs text-slate-600 dark:text-slate-400">
          gwei
        </span>
        <p
          data-testid="chart-readout"
          data-block={selectedBlock}
          data-value={selectedFee}
          data-index={selected}
          data-head={headBlock}
          aria-live="polite"
          className="min-h-6 min-w-0 flex-1 text-sm tabular-nums"
        >
          {readout ?? (
            <span className="text-slate-600 dark:text-slate-400">
              Point at the chart, or focus it and use the arrow keys, to read a block.
            </span>
          )}
        </p>
      </div>
      <div className="flex">
        <div aria-hidden="true" className="relative w-16 shrink-0 text-right text-xs text-slate-600 tabular-nums dark:text-slate-400">
          {yTicks.map((t) => (
            <span
              key={t}
              data-testid="y-tick"
              className="absolute right-2 -translate-y-1/2 whitespace-nowrap"
              style={{ top: `${(y(t) / H) * 100}%` }}
            >
              {formatGweiShort(formatGwei(BigInt(Math.round(t))))}
            </span>
          ))}
        </div>
        <div className="relative min-w-0 flex-1">
          <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} className="block h-48 w-full sm:h-56" preserveAspectRatio="none">
            {yTicks.map((t) => (
              <line
                key={t}
                x1={0}
                x2={W}
                y1={y(t)}
                y2={y(t)}
                className="stroke-slate-200 dark:stroke-slate-800"
                strokeWidth={1}
                vectorEffect="non-scaling-stroke"
              />
            ))}
            {xTicks.map((b) => (
              <line
                key={b}
                x1={x(b - oldestBlock)}
                x2={x(b - oldestBlock)}
                y1={0}
                y2={H}
                className="stroke-slate-200 dark:stroke-slate-800"
                strokeWidth={1}
                vectorEffect="non-scaling-stroke"
              />
            ))}
            {LEVEL_LINES.map((l, i) => (
              <line
                key={l.key}
                x1={0}
                x2={W}
                y1={y(levelValues[i] ?? lo)}
                y2={y(levelValues[i] ?? lo)}
                className={l.stroke}
                strokeDasharray={l.dash}
                strokeWidth={1.25}
                vectorEffect="non-scaling-stroke"
                data-line={`level-${l.key}`}
              />
            ))}
            <line
              x1={0}
              x2={W}
              y1={y(busyValue)}
              y2={y(busyValue)}
              className="stroke-red-600 dark:stroke-red-400"
              strokeDasharray="6 4"
              strokeWidth={1.5}
              vectorEffect="non-scaling-stroke"
              data-line="busy"
            />
            <line
              x1={0}
              x2={W}
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
            {selected !== undefined ? (
              <g data-testid="crosshair">
                <line
                  x1={x(selected)}
                  x2={x(selected)}
                  y1={0}
                  y2={H}
                  className="stroke-slate-900 dark:stroke-slate-100"
                  strokeWidth={1}
                  vectorEffect="non-scaling-stroke"
                />
                <line
                  x1={0}
                  x2={W}
                  y1={y(values[selected] ?? lo)}
                  y2={y(values[selected] ?? lo)}
                  className="stroke-slate-900 dark:stroke-slate-100"
                  strokeWidth={0.75}
                  strokeDasharray="3 3"
                  vectorEffect="non-scaling-stroke"
                />
              </g>
            ) : null}
          </svg>
          {selected !== undefined ? (
            <span
              aria-hidden="true"
              className="pointer-events-none absolute size-2.5 -translate-x-1/2 -translate-y-1/2 rounded-full bg-slate-900 ring-2 ring-white dark:bg-slate-100 dark:ring-slate-900"
              style={{ left: `${(x(selected) / W) * 100}%`, top: `${(y(values[selected] ?? lo) / H) * 100}%` }}
            />
          ) : null}
          <div
            role="slider"
            tabIndex={0}
            aria-label="Block on the base fee chart"
            aria-orientation="horizontal"
            aria-valuemin={oldestBlock}
            aria-valuemax={headBlock}
            aria-valuenow={selectedBlock ?? headBlock}
            aria-valuetext={readout ?? `Block ${headBlock}`}
            data-testid="chart-slider"
            className="absolute inset-0 cursor-crosshair touch-pan-y rounded focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-600"
            onPointerMove={onPointerMove}
            onPointerDown={onPointerMove}
            onPointerLeave={() => setSelection((s) => (s?.via === 'pointer' ? undefined : s))}
            onKeyDown={onKeyDown}
            onFocus={() => setSelection((s) => s ?? { index: count - 1, via: 'key' })}
            onBlur={() => setSelection((s) => (s?.via === 'key' ? undefined : s))}
          />
        </div>
      </div>
      <div aria-hidden="true" className="flex h-5 text-xs text-slate-600 tabular-nums dark:text-slate-400">
        <span className="w-16 shrink-0 pt-1 pr-2 text-right">block</span>
        <div className="relative min-w-0 flex-1">
          {xTicks.map((b) => {
            const at = (x(b - oldestBlock) / W) * 100
            // labels near an edge are anchored to it, so none sticks out of the chart (no sideways scroll)
            const shift = at < 12 ? 'translate-x-0' : at > 88 ? '-translate-x-full' : '-translate-x-1/2'
            return (
              <span
                key={b}
                data-testid="x-tick"
                data-block={b}
                className={`absolute top-1 whitespace-nowrap ${shift}`}
                style={{ left: `${at}%` }}
              >
                {b}
              </span>
            )
          })}
        </div>
      </div>
      <figcaption className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700 dark:text-slate-300">
        <span>
          <span aria-hidden="true" className="mr-1 inline-block h-0.5 w-4 bg-teal-700 align-middle dark:bg-teal-300" />
          base fee, gwei, per block ({count} blocks, oldest left)
        </span>
        <span>
          <span aria-hidden="true" className="mr-1 inline-block h-0.5 w-4 bg-slate-500 align-middle" />
          50th percentile {formatGweiShort(p50)} gwei
        </span>
        <span>
          <span aria-hidden="true" className="mr-1 inline-block h-0.5 w-4 bg-red-600 align-middle" />
          busy threshold {formatGweiShort(busy)} gwei
        </span>
        {LEVEL_LINES.map((l) => (
          <span key={l.key} data-testid={`legend-${l.key}`}>
            <span aria-hidden="true" className={`mr-1 inline-block h-0.5 w-4 align-middle ${l.swatch}`} />
            {l.label} {formatGweiShort(fees[l.key].suggestedMaxFeePerGas)} gwei
          </span>
        ))}
      </figcaption>
    </figure>
  )
}
