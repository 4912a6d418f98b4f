'use client'
import type { KeyboardEvent, PointerEvent } from 'react'
import type { ForecastHorizonBody } from '@/lib/core/contract/schemas'
import { Crosshair, FAN_W, FanShapes, GridLines, H } from './chart-parts'

/** The forecast fan's points, layout only (floating point from wei), per horizon. */
export type FanPoint = { p50: number; p90: number; p99: number; bound?: number }

/**
 * The forecast of the next blocks as a fan right of the history, on the same gwei axis: the p50 line
 * from the head, the p50–p90 and p90–p99 bands, the protocol's bound dashed where the chain has one,
 * a point per horizon and its own slider (pointer or arrow keys) for the readout.
 */
export function ForecastFan(props: {
  horizons: ForecastHorizonBody[]
  fan: FanPoint[]
  fanCount: number
  fanLabel: string
  yTicks: number[]
  y: (v: number) => number
  lo: number
  fanX: (k: number) => number
  p50Fan: string
  band: (upper: (f: FanPoint) => number, lower: (f: FanPoint) => number) => string
  bounded: string[]
  selectedK: number | undefined
  fanValueText: (k: number) => string
  onFanPointerMove: (e: PointerEvent<HTMLDivElement>) => void
  onFanKeyDown: (e: KeyboardEvent<HTMLDivElement>) => void
  onLeave: (via: 'pointer' | 'key') => void
  onFanFocus: () => void
}) {
  const {
    horizons,
    fan,
    fanCount,
    fanLabel,
    yTicks,
    y,
    lo,
    fanX,
    p50Fan,
    band,
    bounded,
    selectedK,
    fanValueText,
    onFanPointerMove,
    onFanKeyDown,
    onLeave,
    onFanFocus,
  } = props
  return (
    <div
      data-testid="forecast-fan"
      className="relative w-16 shrink-0 border-l border-dashed border-slate-400 bg-slate-50 sm:w-28 dark:border-slate-600 dark:bg-slate-900/60"
    >
      <svg viewBox={`0 0 ${FAN_W} ${H}`} role="img" aria-label={fanLabel} className="block h-48 w-full sm:h-56" preserveAspectRatio="none">
        <GridLines ys={yTicks.map(y)} width={FAN_W} />
        <FanShapes
          p99Band={band(
            (f) => f.p99,
            (f) => f.p90,
          )}
          p90Band={band(
            (f) => f.p90,
            (f) => f.p50,
          )}
          bound={bounded.length > 0 ? bounded.join(' ') : undefined}
          p50={p50Fan}
          boundMark="forecast-bound"
          p50TestId="forecast-p50-line"
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
        onPointerLeave={() => onLeave('pointer')}
        onKeyDown={onFanKeyDown}
        onFocus={onFanFocus}
        onBlur={() => onLeave('key')}
      />
    </div>
  )
}
