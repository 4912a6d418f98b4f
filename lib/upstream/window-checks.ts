import type { z } from 'zod'
import type { FeeWindow } from '../core/types'
import { UpstreamBadResponseError } from '../core/contract/errors'
import { PPM } from '../core/units'
import type { RpcFeeHistorySchema } from './schemas'

/**
 * The checks a node's answer passes before it becomes a window: reward rows of the right shape, base
 * fees within the chain's protocol bound, settled blocks unchanged since the last read.
 */

/** eth_feeHistory's answer, validated. */
export type FeeHistory = z.output<typeof RpcFeeHistorySchema>

/** Blocks this far below the previous head are settled: no reorg reaches them (checkOverlap). */
export const REORG_TOLERANCE_BLOCKS = 64

/** Reward rows are one per block, each empty (no tips) or one value per percentile asked. */
export function checkRewards(fh: FeeHistory, p: { rewardPercentiles: readonly number[] }): FeeHistory {
  const reward = fh.reward ?? fh.gasUsedRatio.map(() => [])
  if (reward.some((row) => row.length !== 0 && row.length !== p.rewardPercentiles.length)) {
    throw new UpstreamBadResponseError("The upstream node's eth_feeHistory rewards do not match the percentiles asked.")
  }
  return { ...fh, reward }
}

/**
 * Every base fee of the window, and the next one, within the chain's protocol bound of its parent's:
 * a rise of at most max(1 wei, parent × rise) (EIP-1559 rounds a full block's increase up to 1 wei),
 * a fall of at most parent × fall (rounded up).
 */
export function checkBaseFeeBounds(fh: FeeHistory, bounds: { risePpm: bigint; fallPpm: bigint }): void {
  const fees = fh.baseFeePerGas.map((h) => BigInt(h))
  for (let i = 1; i < fees.length; i++) {
    const parent = fees[i - 1] ?? 0n
    const fee = fees[i] ?? 0n
    const maxRise = (parent * bounds.risePpm) / PPM
    const maxFall = (parent * bounds.fallPpm + PPM - 1n) / PPM
    if (fee > parent + (maxRise > 1n ? maxRise : 1n) || fee < parent - maxFall) {
      const block = fh.oldestBlock + i
      throw new UpstreamBadResponseError(
        `The upstream node's base fee for block ${block} (${fee} wei after ${parent} wei) is outside the chain's protocol bound of +${Number(bounds.risePpm) / 1e4}% / −${Number(bounds.fallPpm) / 1e4}% a block.`,
      )
    }
  }
}

/**
 * Blocks the previous window also held, deeper than a reorg can reach, must not have changed: a node
 * that now reports other base fees or fullness for them is broken or serves another chain.
 */
export function checkOverlap(fh: FeeHistory, previous: FeeWindow): void {
  const settled = previous.headNumber - REORG_TOLERANCE_BLOCKS
  const from = Math.max(fh.oldestBlock, previous.oldestBlock)
  for (let block = from; block <= settled && block < fh.oldestBlock + fh.gasUsedRatio.length; block++) {
    const now = fh.baseFeePerGas[block - fh.oldestBlock]
    const then = previous.baseFeePerGas[block - previous.oldestBlock]
    const nowRatio = fh.gasUsedRatio[block - fh.oldestBlock]
    const thenRatio = previous.gasUsedRatio[block - previous.oldestBlock]
    if (now === undefined || then === undefined) continue
    // clients may round gasUsed / gasLimit differently (failover between two of them): 1e-9 apart is the same block
    if (BigInt(now).toString() !== then || nowRatio === undefined || thenRatio === undefined || Math.abs(nowRatio - thenRatio) > 1e-9) {
      throw new UpstreamBadResponseError(
        `The upstream node's data for block ${block} changed since the last read, deeper than a reorg reaches.`,
      )
    }
  }
}

/**
 * How the head moved since the last read, `now` ms on this clock (docs/operations.md, "A head lower than the last
 * read"): `behind` (lower, no later: a node behind), `restarted` (lower, later: a chain started anew), `jumped` (its
 * timestamps ran over max(60 s, 10 intervals a block) ahead of the wall clock since the last read: a clock leap) or
 * `forward`. A node no more than max(2 s, 2 intervals) behind is `forward` (no news: a load-balanced RPC's backends).
 * @example headMove({ headNumber: 100, headTimestamp: 1000, blockIntervalMs: 2000, fetchedAt: 1_000_000 }, 101, 4600, 1_002_000) // 'jumped'
 */
export function headMove(
  previous: Pick<FeeWindow, 'headNumber' | 'headTimestamp' | 'blockIntervalMs' | 'fetchedAt'>,
  headNumber: number,
  headTimestamp: number,
  now: number,
): 'forward' | 'behind' | 'restarted' | 'jumped' {
  if (headNumber < previous.headNumber) {
    if (headTimestamp > previous.headTimestamp) return 'restarted'
    return previous.headTimestamp - headTimestamp <= Math.max(2, (2 * previous.blockIntervalMs) / 1000) ? 'forward' : 'behind'
  }
  const blocks = headNumber - previous.headNumber
  const limit = Math.max(JUMP_MIN_SECONDS, (10 * blocks * previous.blockIntervalMs) / 1000)
  const overWallClock = headTimestamp - previous.headTimestamp - Math.max(0, now - previous.fetchedAt) / 1000
  return blocks > 0 && overWallClock > limit ? 'jumped' : 'forward'
}

/** Below this (s) a head's advance is never a clock leap: missed slots and halts of a minute are a chain's own pace. */
const JUMP_MIN_SECONDS = 60
