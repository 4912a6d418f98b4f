'use client'
import { useState, type KeyboardEvent, type PointerEvent } from 'react'
import type { BaseFeeForecastBody, SuggestedGasFees } from '@/lib/core/contract/schemas'
import { formatGwei, parseGwei } from '@/lib/core/units'
import { blockTicks, indexAfterKey, indexAt, niceTicks } from './chart-scale'
import { forecastHorizonText, formatGweiShort } from './format'

const W = 600
const H = 200
const PAD = { left: 0, right: 0, top: 8, bottom: 8 }
const PLOT_W = W - PAD.left - PAD.right
/** The forecast fan's own plot, right of the history: its width in view units (the head at 0, block +k at fanX(k)). */
const FAN_W = 100

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

type Via = 'pointer' | 'key'
/** What the readout shows: a block of the history (its index), or a horizon of the forecast (k: block head + k). */
type Selection = { kind: 'block'; index: number; via: Via } | { kind: 'forecast'; k: number; via: Via }

/**
 * The base fee history as an SVG line (one point per block, oldest on the left, the newest being
 * `headBlock`) with axes in gwei and block numbers, the 50th percentile, the busy threshold and the
 * three levels' suggested max fees drawn across it, and a crosshair with a readout of the block under
 * the pointer, or of the block picked with the arrow keys. After the last block, on the same gwei
 * axis and a wider block scale, the forecast of the next blocks as a fan: the p50 line, the p50–p90
 * and p90–p99 bands, and the protocol's bound dashed where the chain has one; its horizons are read
 * out the same way (pointer, or its own slider's arrow keys). Our own component: a few lines need no
 * chart library. The lines are drawn in SVGs stretched to their boxes; the labels are HTML placed by
 * percentage, so text is never stretched.
 */
/** The horizontal grid lines at the y ticks (SVG units), across `width`. */
function GridLines({ ys, width }: { ys: number[]; width: number }) {
  return ys.map((v) => (
    <line
      key={v}
      x1={0}
      x2={width}
      y1={v}
      y2={v}
      className="stroke-slate-200 dark:stroke-slate-800"
      strokeWidth={1}
      vectorEffect="non-scaling-stroke"
    />
  ))
}

/** The selected point's crosshair: a full-height line at x and a dashed one across the plot at y (SVG units). */
function Crosshair({ testId, x, y, width }: { testId: string; x: number; y: number; width: number }) {
  return (
    <g data-testid={testId}>
      <line
        x1={x}
        x2={x}
        y1={0}
        y2={H}
        className="stroke-slate-900 dark:stroke-slate-100"
        strokeWidth={1}
        vectorEffect="non-scaling-stroke"
      />
      <line
        x1={0}
        x2={width}
        y1={y}
        y2={y}
        className="stroke-slate-900 dark:stroke-slate-100"
        strokeWidth={0.75}
        strokeDasharray="3 3"
        vectorEffect="non-scaling-stroke"
      />
    </g>
  )
}

export function FeeChart({
  history,
  headBlock,
  p50,
  busy,
  fees,
  forecast,
}: {
  history: string[]
  headBlock: number
  p50: string
  busy: string
  fees: SuggestedGasFees
  forecast: BaseFeeForecastBody
}) {
  const [selection, setSelection] = useState<Selection | undefined>()
  const oldest = history[0]
  const newest = history.at(-1)
  if (oldest === undefined || newest === undefined) return null
  const count = history.length
  const oldestBlock = headBlock - count + 1
  const horizons = forecast.horizons
  const fanCount = horizons.length
  // layout only: wei as floating point positions the points; every label is formatted from exact values
  const num = (g: string) => Number(parseGwei(g))
  const values = history.map(num)
  const p50Value = num(p50)
  const busyValue = num(busy)
  const levelValues = LEVEL_LINES.map((l) => num(fees[l.key].suggestedMaxFeePerGas))
  const fan = horizons.map((h) => ({
    p50: num(h.p50),
    p90: num(h.p90),
    p99: num(h.p99),
    bound: h.bound === null ? undefined : num(h.bound),
  }))
  const fanValues = fan.flatMap((f) => [f.p50, f.p99, ...(f.bound === undefined ? [] : [f.bound])])
  const lo = Math.min(...values, p50Value, busyValue, ...levelValues, ...fanValues)
  const hi = Math.max(...values, p50Value, busyValue, ...levelValues, ...fanValues)
  const span = hi - lo || 1
  const x = (i: number) => PAD.left + (count === 1 ? 0 : (i / (count - 1)) * PLOT_W)
  const y = (v: number) => PAD.top + (1 - (v - lo) / span) * (H - PAD.top - PAD.bottom)
  // block head + k; k = 0 is the head (the history's last point, at the fan's left edge); half a step
  // of room after the last horizon keeps its point inside the box
  const fanX = (k: number) => (k / (fanCount + 0.5)) * FAN_W
  const xy = (px: number, v: number) => `${px.toFixed(2)},${y(v).toFixed(1)}`
  const points = values.map((v, i) => xy(x(i), v)).join(' ')
  const fanLine = (pick: (f: (typeof fan)[number]) => number) => fan.map((f, i) => xy(fanX(i + 1), pick(f)))
  const p50Fan = [xy(0, values.at(-1) ?? lo), ...fanLine((f) => f.p50)].join(' ')
  const band = (upper: (f: (typeof fan)[number]) => number, lower: (f: (typeof fan)[number]) => number) =>
    [...fanLine(upper), ...fanLine(lower).reverse()].join(' ')
  const bounded = fan.flatMap((f, i) => (f.bound === undefined ? [] : [xy(fanX(i + 1), f.bound)]))
  const yTicks = niceTicks(lo, hi, 4)
  const xTicks = blockTicks(oldestBlock, headBlock, 4)
  const fanTicks = [1, Math.ceil(fanCount / 2), fanCount].filter((k, i, all) => k >= 1 && all.indexOf(k) === i)

  const selected = selection?.kind === 'block' ? Math.min(selection.index, count - 1) : undefined
  const selectedK = selection?.kind === 'forecast' ? Math.min(selection.k, fanCount) : undefined
  const selectedHorizon = selectedK === undefined ? undefined : horizons[selectedK - 1]
  const selectedBlock = selected !== undefined ? oldestBlock + selected : selectedK !== undefined ? headBlock + selectedK : undefined
  const selectedFee = selected !== undefined ? history[selected] : selectedHorizon?.p50

  const label = `Base fee over the last ${count} blocks (${oldestBlock} to ${headBlock}), from ${formatGweiShort(oldest)} to ${formatGweiShort(newest)} gwei; 50th percentile ${formatGweiShort(p50)} gwei, busy threshold ${formatGweiShort(busy)} gwei.`
  const last = horizons.at(-1)
  const fanLabel = last
    ? `Base fee forecast for the next ${fanCount} blocks (${headBlock + 1} to ${headBlock + fanCount}): next block ${formatGweiShort(forecast.estimatedBaseFee)} gwei; at block +${fanCount} p50 ${formatGweiShort(last.p50)} gwei, p99 ${formatGweiShort(last.p99)} gwei${last.bound === null ? '' : `, bound ${formatGweiShort(last.bound)} gwei`}.`
    : 'No base fee forecast.'
  const blockReadout =
    selected !== undefined && selectedBlock !== undefined && selectedFee !== undefined
      ? `Block ${selectedBlock}, base fee ${formatGweiShort(selectedFee)} gwei`
      : undefined
  const readout = selectedHorizon !== undefined ? forecastHorizonText(selectedHorizon, headBlock) : blockReadout
  const fanValueText = (k: number) => {
    const h = horizons[k - 1]
    return h ? forecastHorizonText(h, headBlock) : `Block +${k}`
  }

  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const rect = e.currentTarget.getBoundingClientRect()
    if (rect.width <= 0) return
    const viewX = ((e.clientX - rect.left) / rect.width) * W
    setSelection({ kind: 'block', index: indexAt((viewX - PAD.left) / PLOT_W, count), via: 'pointer' })
  }
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const to = indexAfterKey(e.key, selected, count)
    if (to === undefined) return
    e.preventDefault()
    setSelection({ kind: 'block', index: to, via: 'key' })
  }
  const onFanPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const rect = e.currentTarget.getBoundingClientRect()
    if (rect.width <= 0 || fanCount === 0) return
    const k = Math.round(((e.clientX - rect.left) / rect.width) * (fanCount + 0.5))
    setSelection({ kind: 'forecast', k: Math.min(fanCount, Math.max(1, k)), via: 'pointer' })
  }
  const onFanKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const to = indexAfterKey(e.key, selectedK === undefined ? 0 : selectedK - 1, fanCount)
    if (to === undefined) return
    e.preventDefault()
    setSelection({ kind: 'forecast', k: to + 1, via: 'key' })
  }
  const leave = (via: Via) => setSelection((s) => (s?.via === via ? undefined : s))

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
          data-forecast={selectedK}
          data-head={headBlock}
          aria-live="polite"
          className="min-h-6 min-w-0 flex-1 text-sm tabular-nums"
        >
          {readout ?? (
            <span className="text-slate-600 dark:text-slate-400">
              Point at the chart, or focus it and use the arrow keys, to read a block or the forecast.
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
            <GridLines ys={yTicks.map(y)} width={W} />
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
            {selected !== undefined ? <Crosshair testId="crosshair" x={x(selected)} y={y(values[selected] ?? lo)} width={W} /> : null}
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
            aria-valuenow={selected === undefined ? headBlock : oldestBlock + selected}
            aria-valuetext={blockReadout ?? `Block ${headBlock}`}
            data-testid="chart-slider"
            className="absolute inset-0 cursor-crosshair touch-pan-y rounded focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-600"
            onPointerMove={onPointerMove}
            onPointerDown={onPointerMove}
            onPointerLeave={() => leave('pointer')}
            onKeyDown={onKeyDown}
            onFocus={() => setSelection((s) => (s?.kind === 'block' ? s : { kind: 'block', index: count - 1, via: 'key' }))}
            onBlur={() => leave('key')}
          />
        </div>
        <div
          data-testid="forecast-fan"
          className="relative w-16 shrink-0 border-l border-dashed border-slate-400 bg-slate-50 sm:w-28 dark:border-slate-600 dark:bg-slate-900/60"
        >
          <svg
            viewBox={`0 0 ${FAN_W} ${H}`}
            role="img"
            aria-label={fanLabel}
            className="block h-48 w-full sm:h-56"
            preserveAspectRatio="none"
          >
            <GridLines ys={yTicks.map(y)} width={FAN_W} />
            <polygon
              points={band(
                (f) => f.p99,
                (f) => f.p90,
              )}
              className="fill-teal-600/15 dark:fill-teal-300/15"
              data-band="p99"
            />
            <polygon
              points={band(
                (f) => f.p90,
                (f) => f.p50,
              )}
              className="fill-teal-600/35 dark:fill-teal-300/30"
              data-band="p90"
            />
            {bounded.length > 0 ? (
              <polyline
                points={bounded.join(' ')}
                fill="none"
                className="stroke-slate-700 dark:stroke-slate-300"
                strokeDasharray="4 3"
                strokeWidth={1.5}
                vectorEffect="non-scaling-stroke"
                data-line="forecast-bound"
              />
            ) : null}
            <polyline
              points={p50Fan}
              fill="none"
              className="stroke-teal-700 dark:stroke-teal-300"
              strokeWidth={2}
              vectorEffect="non-scaling-stroke"
              strokeLinejoin="round"
              data-testid="forecast-p50-line"
            />
            {selectedK !== undefined ? (
              <Crosshair testId="forecast-crosshair" x={fanX(selectedK)} y={y(fan[selectedK - 1]?.p50 ?? lo)} width={FAN_W} />
            ) : null}
          </svg>
          {horizons.map((h, i) => (
            <span
              key={h.blocks}
              aria-hidden="true"
              data-testid="forecast-point"
              data-blocks={h.blocks}
              data-p50={h.p50}
              data-p90={h.p90}
              data-p99={h.p99}
              data-bound={h.bound ?? ''}
              className={`pointer-events-none absolute -translate-x-1/2 -translate-y-1/2 rounded-full ${
                selectedK === h.blocks
                  ? 'size-2.5 bg-slate-900 ring-2 ring-white dark:bg-slate-100 dark:ring-slate-900'
                  : 'size-1.5 bg-teal-700 dark:bg-teal-300'
              }`}
              style={{ left: `${(fanX(i + 1) / FAN_W) * 100}%`, top: `${(y(fan[i]?.p50 ?? lo) / H) * 100}%` }}
            />
          ))}
          <div
            role="slider"
            tabIndex={0}
            aria-label="Base fee forecast, blocks after the head"
            aria-orientation="horizontal"
            aria-valuemin={1}
            aria-valuemax={fanCount}
            aria-valuenow={selectedK ?? 1}
            aria-valuetext={fanValueText(selectedK ?? 1)}
            data-testid="forecast-slider"
            className="absolute inset-0 cursor-crosshair touch-pan-y rounded focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-600"
            onPointerMove={onFanPointerMove}
            onPointerDown={onFanPointerMove}
            onPointerLeave={() => leave('pointer')}
            onKeyDown={onFanKeyDown}
            onFocus={() => setSelection((s) => (s?.kind === 'forecast' ? s : { kind: 'forecast', k: 1, via: 'key' }))}
            onBlur={() => leave('key')}
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
        <div className="relative w-16 shrink-0 sm:w-28">
          {fanTicks.map((k) => {
            const at = (fanX(k) / FAN_W) * 100
            // as the block ticks: labels near an edge are anchored to it
            const shift = at < 12 ? 'translate-x-0' : at > 88 ? '-translate-x-full' : '-translate-x-1/2'
            return (
              <span key={k} data-testid="forecast-tick" className={`absolute top-1 whitespace-nowrap ${shift}`} style={{ left: `${at}%` }}>
                +{k}
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
        <span data-testid="legend-forecast">
          <span aria-hidden="true" className="mr-1 inline-block h-2 w-4 bg-teal-600/35 align-middle dark:bg-teal-300/30" />
          forecast of the next {fanCount} blocks (right): median line, 90% and 99% bands
          {horizons.some((h) => h.bound !== null) ? ', protocol bound dashed' : ''}
        </span>
      </figcaption>
    </figure>
  )
}
