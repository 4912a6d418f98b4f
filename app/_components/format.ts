import { parseGwei, WEI_PER_GWEI } from '@/lib/core/units'

/**
 * A decimal gwei string shortened for reading, never with an exponent: two decimals from 1 gwei up (with
 * thousands separators), three significant digits below (trailing zeros dropped).
 */
export function formatGweiShort(gwei: string): string {
  const wei = parseGwei(gwei)
  if (wei >= WEI_PER_GWEI) {
    const cents = (wei + 5_000_000n) / 10_000_000n
    const whole = (cents / 100n).toLocaleString('en-US')
    return `${whole}.${(cents % 100n).toString().padStart(2, '0')}`
  }
  const digits = wei.toString().length
  if (digits <= 3) return gwei
  const factor = 10n ** BigInt(digits - 3)
  const rounded = ((wei + factor / 2n) / factor) * factor
  if (rounded >= WEI_PER_GWEI) return '1.00'
  const fraction = rounded.toString().padStart(9, '0').replace(/0+$/, '')
  return `0.${fraction}`
}

function seconds(ms: number): string {
  const s = ms / 1000
  return s < 2 ? String(Math.round(s * 10) / 10) : String(Math.round(s))
}

function minutes(ms: number): string {
  return String(Math.round(ms / 6_000) / 10)
}

/** A promised wait in words: "12–24 s", "0.3–0.5 s" (tenths below 2 s), "~2 s", "2–6 min". */
export function formatWait(minMs: number, maxMs: number): string {
  if (maxMs >= 120_000) {
    const [a, b] = [minutes(minMs), minutes(maxMs)]
    return a === b ? `~${b} min` : `${a}–${b} min`
  }
  const [a, b] = [seconds(minMs), seconds(maxMs)]
  return a === b ? `~${b} s` : `${a}–${b} s`
}

/** A fraction in [0, 1] as a whole percentage: "55%". */
export function formatPercent(fraction: number): string {
  return `${Math.round(Math.min(1, Math.max(0, fraction)) * 100)}%`
}

/** An age in seconds in words: "0 s", "42 s", "3 min 5 s", "2 h 1 min". */
export function formatAge(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds))
  if (s < 60) return `${s} s`
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`
}

export type Congestion = 'quiet' | 'normal' | 'busy'

/**
 * The congestion word, consistent with the API's thresholds: busy when the next base fee is above
 * busyThreshold (networkCongestion > 0.9), quiet when it is below the 50th percentile, else normal.
 */
export function congestionLevel(estimatedBaseFee: string, baseFeePercentile: string, busyThreshold: string): Congestion {
  const next = parseGwei(estimatedBaseFee)
  if (next > parseGwei(busyThreshold)) return 'busy'
  if (next < parseGwei(baseFeePercentile)) return 'quiet'
  return 'normal'
}

/** A fraction in [0, 1] as a percentage with one decimal: "97.2%", "100.0%". */
export function formatShare(fraction: number): string {
  return `${(Math.round(Math.min(1, Math.max(0, fraction)) * 1000) / 10).toFixed(1)}%`
}

/** A count of blocks in words: "1 block", "2.5 blocks". */
export function formatBlocks(n: number): string {
  const rounded = Math.round(n * 10) / 10
  return `${rounded} ${rounded === 1 ? 'block' : 'blocks'}`
}

/**
 * One horizon of the base-fee forecast in words, as the chart's readout and slider speak it:
 * "Block +3 (1237): p50 1.21 gwei, p90 1.35 gwei, p99 1.52 gwei, bound 1.71 gwei" (shortened gwei;
 * "no protocol bound" where the chain enforces none).
 */
export function forecastHorizonText(
  h: { blocks: number; p50: string; p90: string; p99: string; bound: string | null },
  headBlock: number,
): string {
  const bound = h.bound === null ? 'no protocol bound' : `bound ${formatGweiShort(h.bound)} gwei`
  return `Block +${h.blocks} (${headBlock + h.blocks}): p50 ${formatGweiShort(h.p50)} gwei, p90 ${formatGweiShort(h.p90)} gwei, p99 ${formatGweiShort(h.p99)} gwei, ${bound}`
}
