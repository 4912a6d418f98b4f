/**
 * The backtest: each strategy's suggestion at block N judged on the blocks after N by the inclusion rule and
 * a judge (./judge.ts).
 */
import { BACKTEST_PERCENTILES, judgeNamed, OPENCHAINBENCH_PERCENTILE, realizedTip, type BlockStats, type Judge } from './judge'
import { chainFeePolicy, type ChainFeePolicy } from '../chain-rules/chain-policy'
import { estimateLevels, LEVEL_SETTINGS, REWARD_PERCENTILES } from '../fee-math/estimator'
import type { FeeData, Urgency } from '../types'

/** One level's suggestion: wei and ms. */
export type Suggestion = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint; minWaitMs: number; maxWaitMs: number }

/** What a strategy sees at block N: the blocks up to N, the next base fee, the interval, and the chain (for its fee policy). */
export type StrategyView = {
  blocks: readonly BlockStats[]
  nextBaseFee: bigint
  intervalMs: number
  chainId: number
  /** The chain's fee policy (default: its built-in row, chainFeePolicy(chainId)). */
  policy?: ChainFeePolicy
}

export type Strategy = {
  name: string
  description: string
  suggest(view: StrategyView): Record<Urgency, Suggestion>
}

const col = (p: number) => BACKTEST_PERCENTILES.indexOf(p as (typeof BACKTEST_PERCENTILES)[number])
const reward = (b: BlockStats, p: number) => b.rewards[col(p)] ?? 0n

/** What the live service would hold at a strategy's view: the last 500 blocks as eth_feeHistory reports them. */
export function serviceFeeData(v: StrategyView): FeeData {
  const window = v.blocks.slice(-500)
  return {
    baseFees: window.map((b) => b.baseFee),
    nextBaseFee: v.nextBaseFee,
    gasUsedRatio: window.map((b) => b.gasUsedRatio),
    rewardPercentiles: [...REWARD_PERCENTILES],
    // a block without any reward (no transactions) is an empty row, as the node sends it: the estimator leaves it out
    rewards: window.map((b) => (b.rewards.every((r) => r === null) ? [] : REWARD_PERCENTILES.map((p) => reward(b, p)))),
    blockIntervalMs: v.intervalMs,
  }
}

/** Our estimator, fed exactly what the live service reads (the last 500 blocks as eth_feeHistory reports them). */
export const ours: Strategy = {
  name: 'ours',
  description: 'this service (lib/core/fee-math/estimator.ts)',
  suggest(v) {
    const levels = estimateLevels(serviceFeeData(v), v.policy ?? chainFeePolicy(v.chainId))
    const out = {} as Record<Urgency, Suggestion>
    for (const l of ['low', 'medium', 'high'] as const) {
      out[l] = {
        maxFeePerGas: levels[l].maxFeePerGas,
        maxPriorityFeePerGas: levels[l].maxPriorityFeePerGas,
        minWaitMs: levels[l].minWaitTimeMs,
        maxWaitMs: levels[l].maxWaitTimeMs,
      }
    }
    return out
  },
}

/** Outcome of one suggestion sent right after block N. */
export type Trial = {
  /** Blocks until inclusion (1 = block N+1), or null when not included within the horizon. */
  waitBlocks: number | null
  /** Included within the promised maxWait. */
  inPromise: boolean
  /** paid / cheapest price that would have got in within the same wait (blocks N+1…N+k), − 1 (fee mode, included in promise). */
  overpayment: number | null
  /** OpenChainBench's gap: |predicted tip − the realized percentile of block N+1's tips|, wei (fee mode). */
  gapWei: bigint | null
}

/** What a block demanded, by the judge, the chain minimum applied. */
export type Demand = (b: BlockStats) => bigint | null

/** The inclusion rule. */
export function firstInclusion(s: Suggestion, future: readonly BlockStats[], mode: 'fees' | 'base-fee', demanded: Demand): number | null {
  for (const [i, b] of future.entries()) {
    const k = i + 1
    if (mode === 'base-fee') {
      if (s.maxFeePerGas - s.maxPriorityFeePerGas >= b.baseFee) return k
      continue
    }
    if (s.maxFeePerGas < b.baseFee) continue
    const room = s.maxFeePerGas - b.baseFee
    const tip = room < s.maxPriorityFeePerGas ? room : s.maxPriorityFeePerGas
    if (tip >= (demanded(b) ?? 0n)) return k
  }
  return null
}

/** Blocks within a promised wait: a block arrives every intervalMs after N. */
export function promisedBlocks(maxWaitMs: number, intervalMs: number): number {
  return Math.floor(maxWaitMs / intervalMs + 1e-9)
}

export function trial(
  s: Suggestion,
  future: readonly BlockStats[],
  intervalMs: number,
  mode: 'fees' | 'base-fee',
  demanded: Demand,
  realizedPercentile?: number,
): Trial {
  const w = promisedBlocks(s.maxWaitMs, intervalMs)
  const k = firstInclusion(s, future, mode, demanded)
  const inPromise = k !== null && k <= w
  let overpayment: number | null = null
  if (mode === 'fees' && inPromise && k !== null) {
    const b = future[k - 1]
    if (!b) throw new Error(`inclusion in block ${k} of a future of ${future.length}`)
    const room = s.maxFeePerGas - b.baseFee
    const paid = b.baseFee + (room < s.maxPriorityFeePerGas ? room : s.maxPriorityFeePerGas)
    let cheapest: bigint | null = null
    for (const f of future.slice(0, k)) {
      const price = f.baseFee + (demanded(f) ?? 0n)
      if (cheapest === null || price < cheapest) cheapest = price
    }
    if (cheapest !== null && cheapest > 0n) overpayment = Number(paid - cheapest) / Number(cheapest)
  }
  let gapWei: bigint | null = null
  const nextBlock = future[0]
  if (mode === 'fees' && realizedPercentile !== undefined && nextBlock) {
    const realized = realizedTip(nextBlock, realizedPercentile)
    if (realized !== null)
      gapWei = s.maxPriorityFeePerGas > realized ? s.maxPriorityFeePerGas - realized : realized - s.maxPriorityFeePerGas
  }
  return { waitBlocks: k, inPromise, overpayment, gapWei }
}

export type LevelMetrics = {
  strategy: string
  level: Urgency
  trials: number
  /** Blocks the level promises (median over the trials). */
  promisedBlocks: number
  inclusionRate: number
  /** The share the level claims (LEVEL_SETTINGS): the inclusion rate should be within 5 points of it. */
  targetInclusion: number
  /** null in base-fee mode */
  medianOverpayment: number | null
  p90Overpayment: number | null
  meanWaitBlocks: number | null
  /** Median blocks until inclusion, over the trials included within the horizon (null: none was). */
  medianWaitBlocks: number | null
  /** OpenChainBench's gap (gwei), median and 99th percentile; null in base-fee mode. */
  medianGapGwei: number | null
  p99GapGwei: number | null
}

export type BacktestResult = {
  source: string
  chainId: number
  mode: 'fees' | 'base-fee'
  judge: Judge['name']
  /** Blocks of serving lag: the strategies saw data this many blocks old. */
  lagBlocks: number
  intervalMs: number
  blocks: number
  firstTrialBlock: number | null
  lastTrialBlock: number | null
  metrics: LevelMetrics[]
}

/** The q-quantile (nearest rank) of xs, or null when empty. */
export const quantile = (xs: number[], q: number): number | null => {
  if (xs.length === 0) return null
  const s = [...xs].sort((a, b) => a - b)
  const v = s[Math.max(1, Math.ceil(q * s.length)) - 1]
  if (v === undefined) throw new RangeError(`quantile ${q} is outside [0, 1]`)
  return v
}

/** History a strategy gets before the first trial (geth's oracle reads 20 blocks). */
export const WARMUP_BLOCKS = 20

/**
 * Replays a window: at each block N, each strategy sees the blocks up to N − lag and the next base fee the
 * node reported then (baseFee(N − lag + 1)): data `lagBlocks` old, as a served answer can be.
 */
export function runBacktest(opts: {
  blocks: readonly BlockStats[]
  intervalMs: number
  mode: 'fees' | 'base-fee'
  strategies: readonly Strategy[]
  source: string
  chainId: number
  judge?: Judge
  lagBlocks?: number
  /** The chain's fee policy (default: its built-in row): its minimum tip floors every judge. */
  policy?: ChainFeePolicy
}): BacktestResult {
  const { blocks, intervalMs, mode } = opts
  const judge = opts.judge ?? judgeNamed('lenient')
  const lag = opts.lagBlocks ?? 0
  const policy = opts.policy ?? chainFeePolicy(opts.chainId)
  const minTip = policy.minPriorityFeeWei
  const demanded: Demand = (b) => judge.demanded(b, minTip)
  const levels = ['low', 'medium', 'high'] as const
  const trials = new Map<string, Trial[]>()
  const promised = new Map<string, number[]>()
  let first: number | null = null
  let last: number | null = null
  for (const [n, current] of blocks.entries()) {
    const seen = n - lag
    if (seen < WARMUP_BLOCKS - 1) continue
    // the last block has no next base fee to give a strategy, nor a block to be judged on
    const reported = blocks[seen + 1]
    if (!reported || !blocks[n + 1]) break
    const view = { blocks: blocks.slice(0, seen + 1), nextBaseFee: reported.baseFee, intervalMs, chainId: opts.chainId, policy }
    let judged = false
    for (const strategy of opts.strategies) {
      const sug = strategy.suggest(view)
      for (const level of levels) {
        const w = promisedBlocks(sug[level].maxWaitMs, intervalMs)
        if (n + w >= blocks.length) continue
        const future = blocks.slice(n + 1, n + 1 + Math.max(w * 3, 10))
        const key = `${strategy.name}/${level}`
        let ts = trials.get(key)
        let ws = promised.get(key)
        if (!ts || !ws) {
          trials.set(key, (ts = []))
          promised.set(key, (ws = []))
        }
        ts.push(trial(sug[level], future, intervalMs, mode, demanded, OPENCHAINBENCH_PERCENTILE[level]))
        ws.push(w)
        judged = true
      }
    }
    if (judged) {
      first ??= current.number
      last = current.number
    }
  }
  const metrics: LevelMetrics[] = []
  const gwei = (wei: bigint) => Number(wei) / 1e9
  for (const strategy of opts.strategies) {
    for (const level of levels) {
      const ts = trials.get(`${strategy.name}/${level}`) ?? []
      const overpay = ts.map((t) => t.overpayment).filter((x): x is number => x !== null)
      const waits = ts.map((t) => t.waitBlocks).filter((x): x is number => x !== null)
      const gaps = ts
        .map((t) => t.gapWei)
        .filter((x): x is bigint => x !== null)
        .map(gwei)
      metrics.push({
        strategy: strategy.name,
        level,
        trials: ts.length,
        promisedBlocks: quantile(promised.get(`${strategy.name}/${level}`) ?? [], 0.5) ?? 0,
        inclusionRate: ts.length ? ts.filter((t) => t.inPromise).length / ts.length : 0,
        targetInclusion: LEVEL_SETTINGS[level].targetInclusion,
        medianOverpayment: mode === 'fees' ? quantile(overpay, 0.5) : null,
        p90Overpayment: mode === 'fees' ? quantile(overpay, 0.9) : null,
        meanWaitBlocks: waits.length ? waits.reduce((a, b) => a + b, 0) / waits.length : null,
        medianWaitBlocks: quantile(waits, 0.5),
        medianGapGwei: mode === 'fees' ? quantile(gaps, 0.5) : null,
        p99GapGwei: mode === 'fees' ? quantile(gaps, 0.99) : null,
      })
    }
  }
  return {
    source: opts.source,
    chainId: opts.chainId,
    mode,
    judge: judge.name,
    lagBlocks: lag,
    intervalMs,
    blocks: blocks.length,
    firstTrialBlock: first,
    lastTrialBlock: last,
    metrics,
  }
}
