'use client'
import { useState, type KeyboardEvent, type PointerEvent } from 'react'
import type { BaseFeeForecastBody, SuggestedGasFees } from '@/lib/core/contract/schemas'
import { formatGwei, parseGwei } from '@/lib/core/units'
import { blockTicks, indexAfterKey, indexAt, niceTicks } from './chart-scale'
import { ChartLegend, ChartXAxis, Crosshair, FAN_W, GridLines, H, LEVEL_LINES, PAD, PLOT_W, W } from './chart-parts'
import { ForecastFan, type FanPoint } from './forecast-fan'
import { forecastHorizonText, formatGweiShort } from './format'

type Via = 'pointer' | 'key'
/** What the readout shows: a block of the history (its index), or a horizon of the forecast (k: block head + k). */
type Selection = { kind: 'block'; index: number; via: Via } | { kind: 'forecast'; k: number; via: Via }

/** The base fee history as an SVG line up to `headBlock`, with the levels' max fees across it and a crosshair (pointer or arrow keys). */
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
  const band = (upper: (f: FanPoint) => number, lower: (f: FanPoint) => number) =>
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
        <ForecastFan
          horizons={horizons}
          fan={fan}
          fanCount={fanCount}
          fanLabel={fanLabel}
          yTicks={yTicks}
          y={y}
          lo={lo}
          fanX={fanX}
          p50Fan={p50Fan}
          band={band}
          bounded={bounded}
          selectedK={selectedK}
          fanValueText={fanValueText}
          onFanPointerMove={onFanPointerMove}
          onFanKeyDown={onFanKeyDown}
          onLeave={leave}
          onFanFocus={() => setSelection((s) => (s?.kind === 'forecast' ? s : { kind: 'forecast', k: 1, via: 'key' }))}
        />
      </div>
      <ChartXAxis
        xTicks={xTicks}
        fanTicks={fanTicks}
        tickAt={(b) => (x(b - oldestBlock) / W) * 100}
        fanTickAt={(k) => (fanX(k) / FAN_W) * 100}
      />
      <ChartLegend count={count} p50={p50} busy={busy} fees={fees} fanCount={fanCount} bounded={horizons.some((h) => h.bound !== null)} />
    </figure>
  )
}
