import { demandedTip, type BlockStats } from './block-stats'
import type { Strategy, Suggestion } from './strategies'
import type { Urgency } from './types'

/** Outcome of one suggestion sent right after block N. */
export type Trial = {
  /** Blocks until inclusion (1 = block N+1), or null when not included within the horizon. */
  waitBlocks: number | null
  /** Included within the promised maxWait. */
  inPromise: boolean
  /** Inclusion time within [minWait, maxWait]. */
  calibrated: boolean
  /** paid / cheapest price that would have got in within the same wait (blocks N+1…N+k), − 1 (fee mode, included in promise). */
  overpayment: number | null
}

/**
 * The inclusion rule. A transaction sent right after block N with (maxFee, maxPriority) is included
 * in the first block N+k with maxFee ≥ baseFee(N+k) and effective tip min(maxPriority, maxFee −
 * baseFee(N+k)) ≥ the tip that block demanded (demandedTip). In base-fee mode (the data has no
 * tips) only the part of the max fee reserved for the base fee (maxFee − maxPriority) is checked.
 */
export function firstInclusion(s: Suggestion, future: readonly BlockStats[], mode: 'fees' | 'base-fee'): number | null {
  for (const [i, b] of future.entries()) {
    const k = i + 1
    if (mode === 'base-fee') {
      if (s.maxFeePerGas - s.maxPriorityFeePerGas >= b.baseFee) return k
      continue
    }
    if (s.maxFeePerGas < b.baseFee) continue
    const room = s.maxFeePerGas - b.baseFee
    const tip = room < s.maxPriorityFeePerGas ? room : s.maxPriorityFeePerGas
    if (tip >= (demandedTip(b) ?? 0n)) return k
  }
  return null
}

/** Blocks within a promised wait: a block arrives every intervalMs after N. */
export function promisedBlocks(maxWaitMs: number, intervalMs: number): number {
  return Math.floor(maxWaitMs / intervalMs + 1e-9)
}

export function trial(s: Suggestion, future: readonly BlockStats[], intervalMs: number, mode: 'fees' | 'base-fee'): Trial {
  const w = promisedBlocks(s.maxWaitMs, intervalMs)
  const k = firstInclusion(s, future, mode)
  const inPromise = k !== null && k <= w
  const calibrated = k !== null && k * intervalMs >= s.minWaitMs && k * intervalMs <= s.maxWaitMs
  let overpayment: number | null = null
  if (mode === 'fees' && inPromise && k !== null) {
    const b = future[k - 1]
    if (!b) throw new Error(`inclusion in block ${k} of a future of ${future.length}`)
    const room = s.maxFeePerGas - b.baseFee
    const paid = b.baseFee + (room < s.maxPriorityFeePerGas ? room : s.maxPriorityFeePerGas)
    let cheapest: bigint | null = null
    for (const f of future.slice(0, k)) {
      const price = f.baseFee + (demandedTip(f) ?? 0n)
      if (cheapest === null || price < cheapest) cheapest = price
    }
    if (cheapest !== null && cheapest > 0n) overpayment = Number(paid - cheapest) / Number(cheapest)
  }
  return { waitBlocks: k, inPromise, calibrated, overpayment }
}

export type LevelMetrics = {
  strategy: string
  level: Urgency
  trials: number
  /** Blocks the level promises (median over the trials). */
  promisedBlocks: number
  inclusionRate: number
  /** null in base-fee mode */
  medianOverpayment: number | null
  p90Overpayment: number | null
  meanWaitBlocks: number | null
  calibration: number
}

export type BacktestResult = {
  source: string
  chainId: number
  mode: 'fees' | 'base-fee'
  intervalMs: number
  blocks: number
  firstTrialBlock: number | null
  lastTrialBlock: number | null
  metrics: LevelMetrics[]
}

const quantile = (xs: number[], q: number): number | null => {
  if (xs.length === 0) return null
  const s = [...xs].sort((a, b) => a - b)
  const v = s[Math.max(1, Math.ceil(q * s.length)) - 1]
  if (v === undefined) throw new RangeError(`quantile ${q} is outside [0, 1]`)
  return v
}

/** History a strategy gets before the first trial (geth's oracle reads 20 blocks). */
export const WARMUP_BLOCKS = 20

/**
 * Replays a window: at each block N after WARMUP_BLOCKS, each strategy sees blocks ≤ N and the next
 * base fee (= baseFee(N+1), what the node reports), and each suggestion is judged on blocks N+1…,
 * wherever its own promised wait still has recorded blocks after N (so a long promise has fewer
 * trials near the end of a window than a short one).
 */
export function runBacktest(opts: {
  blocks: readonly BlockStats[]
  intervalMs: number
  mode: 'fees' | 'base-fee'
  strategies: readonly Strategy[]
  source: string
  chainId: number
}): BacktestResult {
  const { blocks, intervalMs, mode } = opts
  const levels = ['low', 'medium', 'high'] as const
  const trials = new Map<string, Trial[]>()
  const promised = new Map<string, number[]>()
  let first: number | null = null
  let last: number | null = null
  for (const [n, current] of blocks.entries()) {
    if (n < WARMUP_BLOCKS - 1) continue
    // the last block has no next base fee to give a strategy
    const next = blocks[n + 1]
    if (!next) break
    const view = { blocks: blocks.slice(0, n + 1), nextBaseFee: next.baseFee, intervalMs, chainId: opts.chainId }
    let judged = false
    for (const strategy of opts.strategies) {
      const sug = strategy.suggest(view)
      for (const level of levels) {
        // a suggestion is judged only where its own promised wait still has recorded blocks after N
        const w = promisedBlocks(sug[level].maxWaitMs, intervalMs)
        if (n + w >= blocks.length) continue
        const future = blocks.slice(n + 1, n + 1 + Math.max(w * 3, 10))
        const key = `${strategy.name}/${level}`
        if (!trials.has(key)) {
          trials.set(key, [])
          promised.set(key, [])
        }
        trials.get(key)!.push(trial(sug[level], future, intervalMs, mode))
        promised.get(key)!.push(w)
        judged = true
      }
    }
    if (judged) {
      first ??= current.number
      last = current.number
    }
  }
  const metrics: LevelMetrics[] = []
  for (const strategy of opts.strategies) {
    for (const level of levels) {
      const ts = trials.get(`${strategy.name}/${level}`) ?? []
      const overpay = ts.map((t) => t.overpayment).filter((x): x is number => x !== null)
      const waits = ts.map((t) => t.waitBlocks).filter((x): x is number => x !== null)
      metrics.push({
        strategy: strategy.name,
        level,
        trials: ts.length,
        promisedBlocks: quantile(promised.get(`${strategy.name}/${level}`) ?? [], 0.5) ?? 0,
        inclusionRate: ts.length ? ts.filter((t) => t.inPromise).length / ts.length : 0,
        medianOverpayment: mode === 'fees' ? quantile(overpay, 0.5) : null,
        p90Overpayment: mode === 'fees' ? quantile(overpay, 0.9) : null,
        meanWaitBlocks: waits.length ? waits.reduce((a, b) => a + b, 0) / waits.length : null,
        calibration: ts.length ? ts.filter((t) => t.calibrated).length / ts.length : 0,
      })
    }
  }
  return {
    source: opts.source,
    chainId: opts.chainId,
    mode,
    intervalMs,
    blocks: blocks.length,
    firstTrialBlock: first,
    lastTrialBlock: last,
    metrics,
  }
}
