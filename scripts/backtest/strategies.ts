import { BACKTEST_PERCENTILES, type BlockStats } from '../../lib/core/evaluation/judge'
import { ours, type Strategy, type StrategyView, type Suggestion } from '../../lib/core/evaluation/backtest'
import { median, sortAscending } from '../../lib/core/fee-math/statistics'
import type { Urgency } from '../../lib/core/types'
import { WEI_PER_GWEI } from '../../lib/core/units'

const col = (p: number) => BACKTEST_PERCENTILES.indexOf(p as (typeof BACKTEST_PERCENTILES)[number])
const reward = (b: BlockStats, p: number) => b.rewards[col(p)] ?? 0n
const ratio = (wei: bigint, num: number, den: number) => (wei * BigInt(num)) / BigInt(den)
const latest = (v: StrategyView) => {
  const b = v.blocks.at(-1)
  if (!b) throw new RangeError('a strategy needs at least one block')
  return b
}

/**
 * MetaMask's former eth_feeHistory fallback (gas-fee-controller): the last 5 blocks' rewards at
 * 10/20/30; tip = lower median × 0.94/0.97/0.98, at least 1/1.5/2 gwei; max fee = latest block's
 * base fee × 1.10/1.20/1.25 + tip; waits 15–30, 15–45, 15–60 s.
 */
export const metamask: Strategy = {
  name: 'metamask-feehistory',
  description: "MetaMask's former eth_feeHistory fallback",
  suggest(v) {
    const recent = v.blocks.slice(-5)
    const settings = {
      low: { p: 10, base: [110, 100], tip: [94, 100], floor: WEI_PER_GWEI, wait: [15_000, 30_000] },
      medium: { p: 20, base: [120, 100], tip: [97, 100], floor: (3n * WEI_PER_GWEI) / 2n, wait: [15_000, 45_000] },
      high: { p: 30, base: [125, 100], tip: [98, 100], floor: 2n * WEI_PER_GWEI, wait: [15_000, 60_000] },
    } as const
    const out = {} as Record<Urgency, Suggestion>
    for (const l of ['low', 'medium', 'high'] as const) {
      const s = settings[l]
      const tipRaw = ratio(median(recent.map((b) => reward(b, s.p))), s.tip[0], s.tip[1])
      const tip = tipRaw > s.floor ? tipRaw : s.floor
      out[l] = {
        maxFeePerGas: ratio(latest(v).baseFee, s.base[0], s.base[1]) + tip,
        maxPriorityFeePerGas: tip,
        minWaitMs: s.wait[0],
        maxWaitMs: s.wait[1],
      }
    }
    return out
  },
}

/**
 * geth's eth_maxPriorityFeePerGas oracle: the 3 lowest tips (ignoring tips under 2 wei) of each of
 * the last 20 blocks, the 60th percentile of those. null when the blocks list no transactions.
 */
export function gethOracleTip(blocks: readonly BlockStats[]): bigint | null {
  const samples: bigint[] = []
  let known = false
  for (const b of blocks.slice(-20)) {
    if (!b.tips) continue
    known = true
    samples.push(...b.tips.filter((t) => t >= 2n).slice(0, 3))
  }
  if (!known) return null
  if (samples.length === 0) return 0n
  const sorted = sortAscending(samples)
  const tip = sorted[Math.floor(((sorted.length - 1) * 60) / 100)]
  if (tip === undefined) throw new RangeError(`gethOracleTip: no 60th percentile of ${sorted.length} samples`)
  return tip
}

/** Neither viem nor ethers promises a wait: they are held to ours, level by level, for a like-for-like test. */
function withOurWaits(v: StrategyView, fee: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }): Record<Urgency, Suggestion> {
  const waits = ours.suggest(v)
  const out = {} as Record<Urgency, Suggestion>
  for (const l of ['low', 'medium', 'high'] as const) out[l] = { ...fee, minWaitMs: waits[l].minWaitMs, maxWaitMs: waits[l].maxWaitMs }
  return out
}

/** viem estimateFeesPerGas default: latest base fee × 1.2 + eth_maxPriorityFeePerGas (geth's oracle). */
export const viem: Strategy = {
  name: 'viem',
  description: 'viem estimateFeesPerGas: base fee × 1.2 + geth oracle tip',
  suggest(v) {
    const tip = gethOracleTip(v.blocks) ?? 0n
    return withOurWaits(v, { maxFeePerGas: ratio(latest(v).baseFee, 12, 10) + tip, maxPriorityFeePerGas: tip })
  },
}

/** ethers v6 getFeeData: 2 × latest base fee + eth_maxPriorityFeePerGas (1 gwei when unknown). */
export const ethers: Strategy = {
  name: 'ethers',
  description: 'ethers v6 getFeeData: 2 × base fee + priority fee',
  suggest(v) {
    const tip = gethOracleTip(v.blocks) ?? WEI_PER_GWEI
    return withOurWaits(v, { maxFeePerGas: 2n * latest(v).baseFee + tip, maxPriorityFeePerGas: tip })
  },
}

/**
 * The Infura Gas API's observed shape: max fee = next base fee × 1.00 / 1.35 / 1.70 + tip, waits as
 * MetaMask's. Infura does not publish its tip rule: tips here are the last 5 blocks' lower-median
 * rewards at 10/20/30 (MetaMask's percentiles, without multipliers or floors).
 */
export const infura: Strategy = {
  name: 'infura-shape',
  description: 'Infura Gas API shape: next base fee × 1.00/1.35/1.70 + tip',
  suggest(v) {
    const recent = v.blocks.slice(-5)
    const settings = { low: [10, 100, 15_000, 30_000], medium: [20, 135, 15_000, 45_000], high: [30, 170, 15_000, 60_000] } as const
    const out = {} as Record<Urgency, Suggestion>
    for (const l of ['low', 'medium', 'high'] as const) {
      const [p, mult, min, max] = settings[l]
      const tip = median(recent.map((b) => reward(b, p)))
      out[l] = { maxFeePerGas: ratio(v.nextBaseFee, mult, 100) + tip, maxPriorityFeePerGas: tip, minWaitMs: min, maxWaitMs: max }
    }
    return out
  },
}

export const STRATEGIES: Strategy[] = [ours, metamask, viem, ethers, infura]
