/**
 * Real mainnet waits (BlockCypher first sight → block timestamp) by the effective tip paid, set
 * against the waits the service promises per level. Pure: callers read the CSV (parseCsv rows of
 * ../shared/data/eth-mainnet-mempool-waits-2025/waiting_time_txs.csv.gz) and print the tables.
 */
import { LEVEL_SETTINGS } from '../../lib/fees/estimator'
import { csvCell, type CsvRow } from '../../lib/fees/recording'
import { percentileNearestRank } from '../../lib/fees/statistics'
import type { Urgency } from '../../lib/fees/types'
import { parseGwei } from '../../lib/fees/units'

/** One sampled transaction, reduced to what the wait tables need. */
export type MempoolTx = {
  block: number
  /**
   * Bounds on the effective priority fee paid, wei (equal when the block's base fee is known):
   * min(maxPriorityFeePerGas, effective gas price − base fee) over the base fees the block can have.
   */
  tipMinWei: bigint
  tipMaxWei: bigint
  /** First sight to the block's timestamp, ms; negative when BlockCypher saw it only after the block. */
  waitMs: number
}

/**
 * Blocks beyond this distance from a known base fee bound nothing useful: (9/8)^32 is a factor 43.
 * The limit keeps the bigint powers small.
 */
export const MAX_BASE_FEE_GAP_BLOCKS = 32

/**
 * Rows of waiting_time_txs.csv to transactions. The tip is min(gas_tip_cap, effective − base fee),
 * effective = effective_gas_price_wei (gas_price for legacy rows, whose tip cap is their gas price).
 * Where the fee cap does not bind this is gas_tip_cap, and effective − implied_base_fee_wei is the
 * same number (the README's derivation); where it binds (implied_base_fee_wei empty) the tip is what
 * the cap left above the base fee, which only the base fee tells. A block's base fee is the most
 * frequent positive implied value among its rows: effective_gas_price_wei is fees / gas_used rounded
 * down, so a few rows imply a base fee 1 wei low, or −1 (a capped row misread as uncapped). A block
 * without an uncapped row takes bounds from the nearest blocks with one on either side through
 * EIP-1559's step (at most +1/8, +1 wei, or −1/8 per block; the README finds every sampled pair of
 * consecutive blocks within it), and with none near, any base fee from 0 to the effective price.
 * Bounds on the base fee give bounds on the tip; no tip is guessed.
 */
export function toMempoolTxs(rows: readonly CsvRow[]): MempoolTx[] {
  const implied = new Map<number, Map<bigint, number>>()
  for (const r of rows) {
    const cell = r.implied_base_fee_wei
    if (cell === undefined || cell === '') continue
    const base = BigInt(cell)
    if (base <= 0n) continue
    const block = Number(csvCell(r, 'block_height'))
    const counts = implied.get(block) ?? new Map<bigint, number>()
    counts.set(base, (counts.get(base) ?? 0) + 1)
    implied.set(block, counts)
  }
  const baseFee = new Map<number, bigint>()
  for (const [block, counts] of implied) {
    // ties go to the lower value, so the result does not depend on row order
    const [best] = [...counts].sort(([a, na], [b, nb]) => nb - na || (a < b ? -1 : a > b ? 1 : 0))
    if (best) baseFee.set(block, best[0])
  }
  const known = [...baseFee.keys()].sort((a, b) => a - b)
  return rows.map((r) => {
    const block = Number(csvCell(r, 'block_height'))
    const tipCap = BigInt(csvCell(r, 'gas_tip_cap'))
    const effective = BigInt(csvCell(r, 'effective_gas_price_wei'))
    const [baseMin, baseMax] = baseFeeBounds(block, baseFee, known, effective)
    const tip = (base: bigint) => {
      const left = effective - base
      return left < 0n ? 0n : left < tipCap ? left : tipCap
    }
    return {
      block,
      tipMinWei: tip(baseMax),
      tipMaxWei: tip(baseMin),
      waitMs: Math.round(Number(csvCell(r, 'wait_seconds')) * 1000),
    }
  })
}

/**
 * [lowest, highest] base fee (wei) block `n` can have, given the known base fees of other blocks
 * and that the block included a transaction paying `effective` (so its base fee is ≤ effective).
 * @param known the blocks of `baseFee`, ascending
 */
export function baseFeeBounds(n: number, baseFee: ReadonlyMap<number, bigint>, known: readonly number[], effective: bigint): [bigint, bigint] {
  const exact = baseFee.get(n)
  if (exact !== undefined) return [exact, exact]
  let lo = 0n
  let hi = effective
  const after = known.findIndex((b) => b > n)
  const next = after === -1 ? undefined : known[after]
  const prev = after === -1 ? known.at(-1) : known[after - 1]
  if (prev !== undefined && n - prev <= MAX_BASE_FEE_GAP_BLOCKS) {
    const [fromLo, fromHi] = stepForward(baseFee.get(prev) ?? 0n, n - prev)
    if (fromLo > lo) lo = fromLo
    if (fromHi < hi) hi = fromHi
  }
  if (next !== undefined && next - n <= MAX_BASE_FEE_GAP_BLOCKS) {
    const [fromLo, fromHi] = stepBackward(baseFee.get(next) ?? 0n, next - n)
    if (fromLo > lo) lo = fromLo
    if (fromHi < hi) hi = fromHi
  }
  return lo <= hi ? [lo, hi] : [hi, hi]
}

// EIP-1559: next = base + max(1, base·Δ/target/8) when above target, ≥ base − base/8 below it. So d
// blocks later base·(7/8)^d ≤ next ≤ base·(9/8)^d + d·(9/8)^d (each step's 1 wei, grown).
function stepForward(base: bigint, d: number): [bigint, bigint] {
  const [n7, n8, n9] = [7n ** BigInt(d), 8n ** BigInt(d), 9n ** BigInt(d)]
  const slack = BigInt(d) * ceilDiv(n9, n8)
  return [(base * n7) / n8, ceilDiv(base * n9, n8) + slack]
}

// the same step read backwards: a base fee d blocks before `base`
function stepBackward(base: bigint, d: number): [bigint, bigint] {
  const [n7, n8, n9] = [7n ** BigInt(d), 8n ** BigInt(d), 9n ** BigInt(d)]
  const slack = BigInt(d) * ceilDiv(n9, n8)
  const lo = base > slack ? ((base - slack) * n8) / n9 : 0n
  return [lo, ceilDiv(base * n8, n7)]
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b

/**
 * Tips at or below this are not a market price: go-ethereum's oracle skips them (DefaultIgnorePrice
 * = 2 wei) and so does the estimator; they get a row of their own.
 */
export const IGNORED_TIP_WEI = 2n

/** Band edges, gwei: decades around the tips mainnet paid in 2025 (quiet blocks went for < 0.01 gwei). */
export const TIP_BAND_EDGES_GWEI = ['0', '0.01', '0.1', '0.5', '1', '2'] as const

export type TipBand = {
  label: string
  /** Inclusive lower bound, wei. */
  fromWei: bigint
  /** Exclusive upper bound, wei; null for no bound. */
  toWei: bigint | null
}

/** '≤ 2 wei', then [edge, next edge) in gwei (the first starting above 2 wei), the last open-ended. */
export const TIP_BANDS: readonly TipBand[] = [
  { label: '≤ 2 wei', fromWei: 0n, toWei: IGNORED_TIP_WEI + 1n },
  ...TIP_BAND_EDGES_GWEI.map((from, i) => {
    const to = TIP_BAND_EDGES_GWEI[i + 1]
    return {
      label: i === 0 ? `(2 wei, ${to})` : to === undefined ? `[${from}, ∞)` : `[${from}, ${to})`,
      fromWei: i === 0 ? IGNORED_TIP_WEI + 1n : parseGwei(from),
      toWei: to === undefined ? null : parseGwei(to),
    }
  }),
]

/** The waits (s) each band reports the share within: mainnet's 1, 2, 3 and 6 blocks of 12 s. */
export const WAIT_MARKS_S = [12, 24, 36, 72] as const

export type WaitStats = {
  label: string
  count: number
  /** Rows with a negative wait (seen after the block), counted as 0 s. */
  negative: number
  /** Nearest-rank percentiles of the wait, s (null for an empty band). */
  p50: number | null
  p90: number | null
  p95: number | null
  p99: number | null
  /** Share (0–1) of the band waiting ≤ each of WAIT_MARKS_S, in that order. */
  within: number[]
}

/** Wait statistics of a set of transactions; a negative wait counts as 0 s (seen with its block). */
export function waitStats(label: string, txs: readonly MempoolTx[]): WaitStats {
  const waits = txs.map((t) => BigInt(Math.max(0, t.waitMs)))
  const pct = (p: number) => (waits.length === 0 ? null : Number(percentileNearestRank(waits, p)) / 1000)
  return {
    label,
    count: txs.length,
    negative: txs.filter((t) => t.waitMs < 0).length,
    p50: pct(50),
    p90: pct(90),
    p95: pct(95),
    p99: pct(99),
    within: WAIT_MARKS_S.map((s) => shareWithin(txs, s * 1000)),
  }
}

/** Share (0–1) of `txs` whose wait, negative counted as 0, is ≤ `maxMs`; 0 for none. */
export function shareWithin(txs: readonly MempoolTx[], maxMs: number): number {
  if (txs.length === 0) return 0
  return txs.filter((t) => Math.max(0, t.waitMs) <= maxMs).length / txs.length
}

/** The band a tip (wei) falls in. */
export function tipBand(tipWei: bigint): TipBand {
  const band = TIP_BANDS.find((b) => tipWei >= b.fromWei && (b.toWei === null || tipWei < b.toWei))
  if (!band) throw new RangeError(`tip ${tipWei} wei is in no band`)
  return band
}

export const UNDECIDED_TIP_LABEL = 'band unknown (fee cap binds, base fee not known closely enough)'

/** One row per tip band, then the rows whose tip bounds straddle a band edge, then all rows together. */
export function waitsByTipBand(txs: readonly MempoolTx[]): WaitStats[] {
  const bandOf = (t: MempoolTx) => {
    const band = tipBand(t.tipMinWei)
    return band === tipBand(t.tipMaxWei) ? band : null
  }
  return [
    ...TIP_BANDS.map((b) => waitStats(b.label, txs.filter((t) => bandOf(t) === b))),
    waitStats(UNDECIDED_TIP_LABEL, txs.filter((t) => bandOf(t) === null)),
    waitStats('all', txs),
  ]
}

/**
 * Whether a transaction paid a tip of at least `minWei`, or null when its tip bounds straddle it
 * (every included transaction paid ≥ 0: its fee cap covered the base fee).
 */
export function paidAtLeast(tx: MempoolTx, minWei: bigint): boolean | null {
  if (tx.tipMinWei >= minWei) return true
  if (tx.tipMaxWei < minWei) return false
  return null
}

export type PromiseCheck = {
  level: Urgency
  /** The level's longest promised wait, s (maxWaitBlocks × the block interval). */
  maxWaitS: number
  /** The level's target share included within it (0–1). */
  target: number
  /** Lower bound of the tip, gwei, as given. */
  minTipGwei: string
  count: number
  /** Rows left out because their tip is unknown and may or may not reach the bound. */
  leftOut: number
  /** Share (0–1) of `count` that waited ≤ maxWaitS. */
  share: number
  /** (share − target) in percentage points: ≥ 0 meets the target. */
  marginPoints: number
}

/** The levels, slowest promise first. */
export const LEVELS: readonly Urgency[] = ['low', 'medium', 'high']

/**
 * For each level and each tip bound T (gwei), the share of transactions paying ≥ T that waited no
 * longer than the level's longest promised wait, against the level's target share.
 * @param blockIntervalMs the chain's block interval, ms (mainnet: 12,000)
 */
export function checkPromises(
  txs: readonly MempoolTx[],
  blockIntervalMs: number,
  minTipsGwei: readonly string[] = TIP_BAND_EDGES_GWEI,
): PromiseCheck[] {
  return LEVELS.flatMap((level) => {
    const { maxWaitBlocks, targetInclusion } = LEVEL_SETTINGS[level]
    const maxWaitMs = maxWaitBlocks * blockIntervalMs
    return minTipsGwei.map((minTipGwei) => {
      const minWei = parseGwei(minTipGwei)
      const verdicts = txs.map((t) => paidAtLeast(t, minWei))
      const paying = txs.filter((_, i) => verdicts[i] === true)
      const share = shareWithin(paying, maxWaitMs)
      return {
        level,
        maxWaitS: maxWaitMs / 1000,
        target: targetInclusion,
        minTipGwei,
        count: paying.length,
        leftOut: verdicts.filter((v) => v === null).length,
        share,
        marginPoints: (share - targetInclusion) * 100,
      }
    })
  })
}

/**
 * 'meets (+1.2 points)' or 'misses by 3.4 points' (0.1 point steps): the sign decides, not the
 * rounding, so a share just under its target never reads as meeting it.
 */
export function verdict(marginPoints: number): string {
  if (marginPoints >= 0) return `meets (+${marginPoints.toFixed(1)} points)`
  const by = -marginPoints
  return `misses by ${by < 0.05 ? '< 0.1' : by.toFixed(1)} points`
}
