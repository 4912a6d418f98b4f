'use client'
import type { SuggestedGasFees } from '@/lib/core/contract/schemas'
import { formatGweiShort } from './format'

export const W = 600
export const H = 200
export const PAD = { left: 0, right: 0, top: 8, bottom: 8 }
export const PLOT_W = W - PAD.left - PAD.right
/** The forecast fan's own plot, right of the history: its width in view units (the head at 0, block +k at fanX(k)). */
export const FAN_W = 100

export const LEVEL_LINES = [
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

/** The horizontal grid lines at the y ticks (SVG units), across `width`. */
export function GridLines({ ys, width }: { ys: number[]; width: number }) {
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
export function Crosshair({ testId, x, y, width }: { testId: string; x: number; y: number; width: number }) {
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

/** The block axis under the chart: the history's block ticks, and the fan's +k ticks. */
export function ChartXAxis({
  xTicks,
  fanTicks,
  tickAt,
  fanTickAt,
}: {
  xTicks: number[]
  fanTicks: number[]
  tickAt: (block: number) => number
  fanTickAt: (k: number) => number
}) {
  return (
    <div aria-hidden="true" className="flex h-5 text-xs text-slate-600 tabular-nums dark:text-slate-400">
      <span className="w-16 shrink-0 pt-1 pr-2 text-right">block</span>
      <div className="relative min-w-0 flex-1">
        {xTicks.map((b) => {
          const at = tickAt(b)
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
          const at = fanTickAt(k)
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
  )
}

/** The chart's legend: each line and band, with the values drawn. */
export function ChartLegend({
  count,
  p50,
  busy,
  fees,
  fanCount,
  bounded,
}: {
  count: number
  p50: string
  busy: string
  fees: SuggestedGasFees
  fanCount: number
  bounded: boolean
}) {
  return (
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
        {bounded ? ', protocol bound dashed' : ''}
      </span>
    </figcaption>
  )
}

/**
 * A forecast fan's shapes inside an SVG: the p90–p99 band, the p50–p90 band, the protocol's bound dashed
 * (where there is one) and the p50 line; each as SVG points ("x,y x,y …"), the bands as closed polygons.
 */
export function FanShapes(props: { p99Band: string; p90Band: string; bound?: string; p50: string; boundMark: string; p50TestId: string }) {
  return (
    <>
      <polygon points={props.p99Band} className="fill-teal-600/15 dark:fill-teal-300/15" data-band="p99" />
      <polygon points={props.p90Band} className="fill-teal-600/35 dark:fill-teal-300/30" data-band="p90" />
      {props.bound ? (
        <polyline
          points={props.bound}
          fill="none"
          className="stroke-slate-700 dark:stroke-slate-300"
          strokeDasharray="4 3"
          strokeWidth={1.5}
          vectorEffect="non-scaling-stroke"
          data-line={props.boundMark}
        />
      ) : null}
      <polyline
        points={props.p50}
        fill="none"
        className="stroke-teal-700 dark:stroke-teal-300"
        strokeWidth={2}
        vectorEffect="non-scaling-stroke"
        strokeLinejoin="round"
        data-testid={props.p50TestId}
      />
    </>
  )
}
