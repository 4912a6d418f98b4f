/**
 * txdelay.xyz's six-hour windows of mainnet "fee-viable inclusion time" (first sight in the mempool
 * once the fee cap covers the base fee, to inclusion) against the waits the service promises per
 * level. Pure: callers read ../shared/data/eth-mainnet-inclusion-delay-2025-2026/history.json.
 */
import { z } from 'zod'
import { LEVEL_SETTINGS } from '../../lib/core/fee-math/estimator'
import { percentileNearestRank } from '../../lib/core/fee-math/statistics'
import type { Urgency } from '../../lib/core/types'
import { LEVELS } from './mempool-waits'

/** One window as history.json has it (other fields, such as mempool_timing, are not read). */
const DelayWindowSchema = z.object({
  /** seconds */
  median: z.number().nonnegative(),
  mean: z.number().nonnegative(),
  p90: z.number().nonnegative(),
  p99: z.number().nonnegative(),
  num_txs: z.number().int().nonnegative(),
  /** window start, ISO without a zone (UTC) */
  timestamp: z.string(),
  basefee_gwei: z.number().nonnegative(),
})
const DelayHistorySchema = z.array(DelayWindowSchema)

export type DelayWindow = z.infer<typeof DelayWindowSchema>

/** history.json's parsed JSON to windows; throws a ZodError naming the field when the shape is off. */
export function parseDelayWindows(json: unknown): DelayWindow[] {
  return DelayHistorySchema.parse(json)
}

export type LevelWindowCheck = {
  level: Urgency
  /** The level's longest promised wait, s. */
  maxWaitS: number
  /** The level's target share included within it (0–1). */
  target: number
  windows: number
  /** Share (0–1) of windows whose p90 is ≤ maxWaitS: at least 90% of their transactions got in within it. */
  p90Within: number
  /** Share (0–1) of windows whose p99 is ≤ maxWaitS: at least 99% got in within it. */
  p99Within: number
}

/**
 * For each level, the share of windows whose p90 and p99 inclusion times are within the level's
 * longest promised wait. A window's p99 within the wait meets any target ≤ 99% in that window; its
 * p90 within the wait is necessary for the 90% target and says nothing finer.
 * @param blockIntervalMs the chain's block interval, ms (mainnet: 12,000)
 */
export function checkLevelsByWindow(windows: readonly DelayWindow[], blockIntervalMs: number): LevelWindowCheck[] {
  return LEVELS.map((level) => {
    const { maxWaitBlocks, targetInclusion } = LEVEL_SETTINGS[level]
    const maxWaitS = (maxWaitBlocks * blockIntervalMs) / 1000
    const share = (pick: (w: DelayWindow) => number) =>
      windows.length === 0 ? 0 : windows.filter((w) => pick(w) <= maxWaitS).length / windows.length
    return {
      level,
      maxWaitS,
      target: targetInclusion,
      windows: windows.length,
      p90Within: share((w) => w.p90),
      p99Within: share((w) => w.p99),
    }
  })
}

export type DelaySummary = {
  windows: number
  /** Transactions behind the windows (sum of num_txs). */
  txs: number
  first: string | null
  last: string | null
  /** Nearest-rank medians over the windows of their median, p90 and p99, s (null for no windows). */
  medianOfMedians: number | null
  medianOfP90s: number | null
  medianOfP99s: number | null
  /** The largest window p99, s. */
  worstP99: number | null
}

// the windows' statistics have one decimal: ms integers are exact and let the core's bigint percentile serve
const lowerMedianS = (values: number[]) =>
  values.length === 0
    ? null
    : Number(
        percentileNearestRank(
          values.map((v) => BigInt(Math.round(v * 1000))),
          50,
        ),
      ) / 1000

/** Window count, date range and the typical window's statistics. */
export function summarizeWindows(windows: readonly DelayWindow[]): DelaySummary {
  const byTime = [...windows].sort((a, b) => a.timestamp.localeCompare(b.timestamp))
  return {
    windows: windows.length,
    txs: windows.reduce((n, w) => n + w.num_txs, 0),
    first: byTime[0]?.timestamp ?? null,
    last: byTime.at(-1)?.timestamp ?? null,
    medianOfMedians: lowerMedianS(windows.map((w) => w.median)),
    medianOfP90s: lowerMedianS(windows.map((w) => w.p90)),
    medianOfP99s: lowerMedianS(windows.map((w) => w.p99)),
    worstP99: windows.length === 0 ? null : Math.max(...windows.map((w) => w.p99)),
  }
}
