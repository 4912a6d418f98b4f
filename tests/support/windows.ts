import { REWARD_PERCENTILES } from '@/lib/core/fee-math/estimator'
import { percentileNearestRank } from '@/lib/core/fee-math/statistics'
import type { FeeWindow } from '@/lib/core/types'
import { at } from './at'
import { mainnetFakeChain } from './mainnet-blocks'

/** A FeeWindow from literal values (wei), with the estimator's reward percentiles. */
export function makeWindow(input: {
  baseFees: bigint[]
  next: bigint
  ratios?: number[]
  /** one row per block, one value per REWARD_PERCENTILES entry */
  rewards?: bigint[][]
  intervalMs?: number
}): FeeWindow {
  const n = input.baseFees.length
  return {
    chainId: 1,
    oldestBlock: 100,
    headNumber: 100 + n - 1,
    headTimestamp: 1_700_000_000,
    blockIntervalMs: input.intervalMs ?? 12_000,
    intervalAnchor: null,
    baseFeePerGas: input.baseFees.map(String),
    nextBaseFeePerGas: String(input.next),
    gasUsedRatio: input.ratios ?? input.baseFees.map(() => 0.5),
    rewardPercentiles: [...REWARD_PERCENTILES],
    reward: (input.rewards ?? input.baseFees.map(() => REWARD_PERCENTILES.map(() => 0n))).map((r) => r.map(String)),
    fetchedAt: 0,
  }
}

/** The same reward value at every percentile. */
export const flatRewards = (tip: bigint) => REWARD_PERCENTILES.map(() => tip)

/**
 * The real 100-block post-Merge mainnet window (15,627,832–15,627,931) as a FeeWindow: each block's
 * reward percentiles from its transactions' effective tips (nearest-rank, unweighted: the dataset has
 * no per-transaction gasUsed), the next base fee from the EIP-1559 rule, 12 s slots.
 */
export function mainnet100BlockWindow(): FeeWindow {
  const { blocks, nextBaseFee } = mainnetFakeChain()
  const window = makeWindow({
    baseFees: blocks.map((b) => b.baseFee),
    next: nextBaseFee,
    ratios: blocks.map((b) => b.gasUsedRatio),
    rewards: blocks.map((b) => REWARD_PERCENTILES.map((p) => (b.tips.length ? percentileNearestRank(b.tips, p) : 0n))),
    intervalMs: 12_000,
  })
  return { ...window, oldestBlock: at(blocks, 0).number, headNumber: at(blocks, -1).number }
}
