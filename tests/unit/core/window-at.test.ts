import { describe, expect, test } from 'vitest'
import { windowAt } from '@/lib/core/window-at'
import { buildFeeReport } from '@/lib/core/contract/report'
import { chainFeePolicy } from '@/lib/core/chain-rules/chain-policy'
import { makeWindow, mainnet100BlockWindow } from '../../support/windows'
import { mainnetFakeChain } from '../../support/mainnet-blocks'
import { at } from '../../support/at'
import { REWARD_PERCENTILES } from '@/lib/core/fee-math/estimator'
import { percentileNearestRank } from '@/lib/core/fee-math/statistics'

describe('windowAt: a window as it stood at an earlier block', () => {
  test('default: the series cut at the block, the next base fee the one the following block had', () => {
    const w = {
      ...makeWindow({ baseFees: [10n, 11n, 12n, 13n], next: 14n, ratios: [0.1, 0.2, 0.3, 0.4] }),
      baseFeePerBlobGas: ['1', '2', '3', '4'],
      nextBaseFeePerBlobGas: '5',
      blobGasUsedRatio: [0.5, 0.6, 0.7, 0.8],
    }
    const cut = windowAt(w, w.headNumber - 2)!
    expect(cut.headNumber).toBe(w.headNumber - 2)
    expect(cut.oldestBlock).toBe(w.oldestBlock)
    expect(cut.baseFeePerGas).toEqual(['10', '11'])
    expect(cut.nextBaseFeePerGas).toBe('12')
    expect(cut.gasUsedRatio).toEqual([0.1, 0.2])
    expect(cut.reward).toHaveLength(2)
    expect(cut.baseFeePerBlobGas).toEqual(['1', '2'])
    expect(cut.nextBaseFeePerBlobGas).toBe('3')
    expect(cut.blobGasUsedRatio).toEqual([0.5, 0.6])
    expect(windowAt(w, w.headNumber)).toBe(w)
  })

  test('errors: a block after the head or before the oldest block has no cut', () => {
    const w = makeWindow({ baseFees: [10n, 11n], next: 12n })
    expect(windowAt(w, w.headNumber + 1)).toBeUndefined()
    expect(windowAt(w, w.oldestBlock - 1)).toBeUndefined()
    expect(windowAt(w, w.oldestBlock)!.baseFeePerGas).toEqual(['10'])
  })

  test('behavior: on real mainnet blocks, the window cut at block N gives the report of a window built from the blocks up to N alone', () => {
    const { blocks } = mainnetFakeChain()
    const full = mainnet100BlockWindow()
    const policy = chainFeePolicy(1)
    // the 99 blocks up to N, built from the dataset, the next base fee the one block N + 1 had
    const upToN = blocks.slice(0, -1)
    const built = makeWindow({
      baseFees: upToN.map((b) => b.baseFee),
      next: at(blocks, -1).baseFee,
      ratios: upToN.map((b) => b.gasUsedRatio),
      rewards: upToN.map((b) => REWARD_PERCENTILES.map((p) => (b.tips.length ? percentileNearestRank(b.tips, p) : 0n))),
      intervalMs: 12_000,
    })
    const readAtN = { ...built, oldestBlock: at(upToN, 0).number, headNumber: at(upToN, -1).number }
    const cut = windowAt(full, full.headNumber - 1)!
    expect(buildFeeReport(cut, policy)).toEqual(buildFeeReport(readAtN, policy))
    // and it is not the head's report
    expect(buildFeeReport(cut, policy)).not.toEqual(buildFeeReport(full, policy))
  })
})
