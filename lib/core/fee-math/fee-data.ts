import type { FeeData, FeeWindow } from '../types'

/** Parses a window's decimal wei strings into bigint for the math. */
export function toFeeData(window: FeeWindow): FeeData {
  return {
    baseFees: window.baseFeePerGas.map(BigInt),
    nextBaseFee: BigInt(window.nextBaseFeePerGas),
    gasUsedRatio: window.gasUsedRatio,
    rewardPercentiles: window.rewardPercentiles,
    rewards: window.reward.map((row) => row.map(BigInt)),
    blockIntervalMs: window.blockIntervalMs,
    ...(window.pending ? { pending: window.pending } : {}),
  }
}
