import type { BlobFeesBody } from '@/lib/core/contract/schemas'
import { FanShapes } from './chart-parts'
import { formatGweiShort } from './format'

const W = 300
const H = 120
const PAD = 6

/**
 * The blob base fee forecast as a fan over blocks +1 … +10, like the base fee's: the p50 line, the p50–p90 and
 * p90–p99 bands, the protocol's bound dashed. Linear gwei axis from the lowest p50 to the highest bound; the
 * table beside it carries the numbers (this picture is layout only, floating point from the gwei strings).
 */
export function BlobFan({ forecast }: { forecast: BlobFeesBody['forecast'] }) {
  const hs = forecast.horizons
  if (hs.length < 2) return null
  const num = (v: string) => Number(v)
  const loText = hs.reduce((a, h) => (num(h.p50) < num(a) ? h.p50 : a), hs[0]!.p50)
  const hiText = hs.reduce((a, h) => (num(h.bound) > num(a) ? h.bound : a), hs[0]!.bound)
  const lo = num(loText)
  const hi = num(hiText)
  const span = hi > lo ? hi - lo : Math.max(hi, 1e-18)
  const x = (i: number) => PAD + (i * (W - 2 * PAD)) / (hs.length - 1)
  const y = (v: number) => H - PAD - ((v - lo) / span) * (H - 2 * PAD)
  const line = (pick: (h: (typeof hs)[number]) => string) => hs.map((h, i) => `${x(i)},${y(num(pick(h)))}`)
  const band = (upper: (h: (typeof hs)[number]) => string, lower: (h: (typeof hs)[number]) => string) =>
    [...line(upper), ...line(lower).reverse()].join(' ')
  const last = hs.at(-1)!
  const label =
    `Blob base fee forecast, blocks +1 to +${last.blocks}: next ${formatGweiShort(hs[0]!.p50)} gwei; ` +
    `at +${last.blocks} p50 ${formatGweiShort(last.p50)}, p90 ${formatGweiShort(last.p90)}, p99 ${formatGweiShort(last.p99)}, ` +
    `bound ${formatGweiShort(last.bound)} gwei`
  return (
    <figure className="mt-3 max-w-md rounded-xl border border-slate-300 p-2 dark:border-slate-700">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={label}
        data-testid="blob-fan"
        className="block h-28 w-full"
        preserveAspectRatio="none"
      >
        <FanShapes
          p99Band={band(
            (h) => h.p99,
            (h) => h.p90,
          )}
          p90Band={band(
            (h) => h.p90,
            (h) => h.p50,
          )}
          bound={line((h) => h.bound).join(' ')}
          p50={line((h) => h.p50).join(' ')}
          boundMark="bound"
          p50TestId="blob-fan-p50"
        />
        {hs.map((h, i) => (
          <circle key={h.blocks} cx={x(i)} cy={y(num(h.p50))} r={2.5} className="fill-teal-700 dark:fill-teal-300" data-blocks={h.blocks} />
        ))}
      </svg>
      <figcaption className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        Blocks +1 to +{last.blocks}, {formatGweiShort(loText)}–{formatGweiShort(hiText)} gwei: median line, 90% and 99% bands, protocol
        bound dashed
      </figcaption>
    </figure>
  )
}
