/**
 * Real mainnet waits (BlockCypher first sight → block timestamp) by the effective tip paid, set
 * against the waits the service promises per level. Pure: callers read the CSV (parseCsv rows of
 * ../shared/data/eth-mainnet-mempool-waits-2025/waiting_time_txs.csv.gz) and print the tables.
 */
import { IGNORE_TIP_WEI, LEVEL_SETTINGS } from '../../lib/core/fee-math/estimator'
import { csvCell, type CsvRow } from '../record/recording'
import { percentileNearestRank } from '../../lib/core/fee-math/statistics'
import type { Urgency } from '../../lib/core/types'
import { parseGwei } from '../../lib/core/units'

/**
 * How a row's recorded price (fees / gas_used) relates to what EIP-1559 charges, min(base fee + tip
 * cap, fee cap), over the base fees its block can have: 'consistent' when it is the charge for every
 * one of them (within the 1 wei the division rounds off); 'overstated' / 'understated' when it is
 * above / below the charge for all of them (overstated rows record the fee cap as the price although
 * the cap lies more than the tip cap above the base fee); 'undecided' otherwise.
 */
export type FeeRecord = 'consistent' | 'overstated' | 'understated' | 'undecided'

/** One sampled transaction, reduced to what the wait tables need. */
export type MempoolTx = {
  block: number
  /**
   * Bounds on the effective priority fee paid, wei, min(maxPriorityFeePerGas, maxFeePerGas − base
   * fee) over the base fees the block can have: equal when its base fee is known.
   */
  tipMinWei: bigint
  tipMaxWei: bigint
  feeRecord: FeeRecord
  /** First sight to the block's timestamp, ms; negative when BlockCypher saw it only after the block. */
  waitMs: number
}

/**
 * Blocks beyond this distance from a known base fee bound nothing useful: (9/8)^32 is a factor 43.
 * The limit keeps the bigint powers small.
 */
const MAX_BASE_FEE_GAP_BLOCKS = 32

/**
 * Rows of waiting_time_txs.csv to transactions. The tip is the protocol's, min(gas_tip_cap,
 * gas_fee_cap − base fee) (legacy rows carry their gas price in both), not effective_gas_price_wei −
 * base fee: the two agree wherever the recorded price is what EIP-1559 charges, but some rows record
 * the fee cap as the price (FeeRecord 'overstated'), and for them the tip cap is what was paid.
 * The recorded price serves only to find the base fee: a block's is the most frequent positive
 * implied_base_fee_wei among its rows (effective price − tip cap where the cap does not bind; the
 * price is fees / gas_used rounded down, so a few rows imply 1 wei less, or −1 for a capped row
 * misread as uncapped). A block without one takes bounds from the nearest blocks with one on either
 * side through EIP-1559's step (the README finds every sampled pair of consecutive blocks within it),
 * and with none near, any base fee up to the fee cap. Bounds on the base fee bound the tip; no tip is
 * guessed.
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
    const feeCap = BigInt(csvCell(r, 'gas_fee_cap'))
    const recorded = BigInt(csvCell(r, 'effective_gas_price_wei'))
    const [baseMin, baseMax] = baseFeeBounds(block, baseFee, known, feeCap)
    const tip = (base: bigint) => minOf(tipCap, feeCap - base)
    const charged = (base: bigint) => minOf(base + tipCap, feeCap)
    // the price is rounded down from fees / gas_used: 1 wei below the charge is still the charge
    const [least, most] = [charged(baseMin) - 1n, charged(baseMax)]
    const feeRecord: FeeRecord =
      recorded > most
        ? 'overstated'
        : recorded < least
          ? 'understated'
          : recorded >= most - 1n && recorded <= least + 1n
            ? 'consistent'
            : 'undecided'
    return {
      block,
      tipMinWei: tip(baseMax),
      tipMaxWei: tip(baseMin),
      feeRecord,
      waitMs: Math.round(Number(csvCell(r, 'wait_seconds')) * 1000),
    }
  })
}

const minOf = (a: bigint, b: bigint) => (a < b ? a : b)

/**
 * [lowest, highest] base fee (wei) block `n` can have, given the known base fees of other blocks
 * and that the block included a transaction with fee cap `feeCap` (so its base fee is ≤ feeCap).
 * @param known the blocks of `baseFee`, ascending
 */
export function baseFeeBounds(n: number, baseFee: ReadonlyMap<number, bigint>, known: readonly number[], feeCap: bigint): [bigint, bigint] {
  const exact = baseFee.get(n)
  if (exact !== undefined) return [exact, exact]
  let lo = 0n
  let hi = feeCap
  const after = firstAbove(known, n)
  const next = known[after]
  const prev = known[after - 1]
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
  // bounds that contradict the inclusion itself say the neighbours are wrong: trust none of them
  return lo <= hi ? [lo, hi] : [0n, feeCap]
}

/** Index of the first element of ascending `sorted` above `n` (sorted.length when none is). */
function firstAbove(sorted: readonly number[], n: number): number {
  let [lo, hi] = [0, sorted.length]
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((sorted[mid] ?? Infinity) > n) hi = mid
    else lo = mid + 1
  }
  return lo
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
 * Band edges, gwei. The promise table's tip thresholds are the same edges: it assumes no tip the
 * estimator would have suggested.
 */
const TIP_BAND_EDGES_GWEI = ['0', '0.01', '0.1', '0.5', '1', '2'] as const

export type TipBand = {
  label: string
  /** Inclusive lower bound, wei. */
  fromWei: bigint
  /** Exclusive upper bound, wei; null for no bound. */
  toWei: bigint | null
}

/** '≤ 2 wei', then [edge, next edge) in gwei (the first starting above 2 wei), the last open-ended. */
const TIP_BANDS: readonly TipBand[] = [
  { label: '≤ 2 wei', fromWei: 0n, toWei: IGNORE_TIP_WEI + 1n },
  ...TIP_BAND_EDGES_GWEI.map((from, i) => {
    const to = TIP_BAND_EDGES_GWEI[i + 1]
    return {
      label: i === 0 ? `(2 wei, ${to})` : to === undefined ? `[${from}, ∞)` : `[${from}, ${to})`,
      fromWei: i === 0 ? IGNORE_TIP_WEI + 1n : parseGwei(from),
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
  /** Share (0–1) of the band waiting ≤ each of WAIT_MARKS_S, in that order (null for an empty band). */
  within: (number | null)[]
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
    within: WAIT_MARKS_S.map((s) => (txs.length === 0 ? null : shareWithin(txs, s * 1000))),
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

export const UNDECIDED_TIP_LABEL = 'straddles a band edge (base fee known only within bounds)'

/** One row per tip band, then the rows whose tip bounds straddle a band edge, then all rows together. */
export function waitsByTipBand(txs: readonly MempoolTx[]): WaitStats[] {
  const bandOf = (t: MempoolTx) => {
    const band = tipBand(t.tipMinWei)
    return band === tipBand(t.tipMaxWei) ? band : null
  }
  const inBand = (b: TipBand | null) => txs.filter((t) => bandOf(t) === b)
  return [...TIP_BANDS.map((b) => waitStats(b.label, inBand(b))), waitStats(UNDECIDED_TIP_LABEL, inBand(null)), waitStats('all', txs)]
}

const FEE_RECORDS: readonly FeeRecord[] = ['consistent', 'overstated', 'understated', 'undecided']

/** One row per kind of fee record (see FeeRecord), then all rows together. */
export function waitsByFeeRecord(txs: readonly MempoolTx[]): WaitStats[] {
  const ofKind = (k: FeeRecord) => txs.filter((t) => t.feeRecord === k)
  return [...FEE_RECORDS.map((k) => waitStats(k, ofKind(k))), waitStats('all', txs)]
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
  /** Share (0–1) of `count` that waited ≤ maxWaitS (0 when none paid ≥ the bound). */
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
