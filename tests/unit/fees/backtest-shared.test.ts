import { describe, expect, test } from 'vitest'
import { loadSharedDatasets } from '@/lib/datasets/shared-data'
import { runBacktest } from '@/lib/fees/backtest'
import { toBlockStats } from '@/lib/fees/block-stats'
import { STRATEGIES } from '@/lib/fees/strategies'
import { SHARED_DATA } from '../../support/shared-data'

/**
 * Regression guard on the real recorded windows: our medium gets ≥ 95% in within its promised
 * wait and high ≥ 99%; and no reference strategy with at least our inclusion has a median
 * overpayment within 20% of ours (ours is clearly below). Not a timing test.
 */
const datasets = loadSharedDatasets(SHARED_DATA)

describe('backtest on the shared real datasets', () => {
  test('default: every dataset is read', () => {
    const names = datasets.map((d) => d.name)
    for (const n of ['mainnet-1640-blocks', 'mainnet-100-blocks-txs', 'polygon-1024-feehistory']) expect(names).toContain(n)
    expect(names.filter((n) => n.startsWith('erigon-')).length).toBeGreaterThan(10)
  })

  const long = datasets.filter(({ recording }) => recording.blocks.length >= 60)
  test.each(long.map((d) => [d.name, d] as const))(
    'behavior: %s meets the inclusion targets and beats the references',
    (_, { recording, name }) => {
      const { blocks, intervalMs, tipsKnown } = toBlockStats(recording)
      const result = runBacktest({
        blocks,
        intervalMs,
        mode: tipsKnown ? 'fees' : 'base-fee',
        strategies: STRATEGIES,
        source: name,
        chainId: recording.header.chainId,
      })
      const get = (s: string, l: string) => result.metrics.find((m) => m.strategy === s && m.level === l)!
      expect(get('ours', 'medium').trials).toBeGreaterThan(50)
      expect(get('ours', 'medium').inclusionRate).toBeGreaterThanOrEqual(0.95)
      expect(get('ours', 'high').inclusionRate).toBeGreaterThanOrEqual(0.99)
      if (result.mode === 'fees') {
        const ours = get('ours', 'medium')
        for (const ref of STRATEGIES.filter((s) => s.name !== 'ours')) {
          const theirs = get(ref.name, 'medium')
          if (theirs.inclusionRate >= ours.inclusionRate) {
            expect(ours.medianOverpayment!, `${ref.name} medium: ${theirs.medianOverpayment}`).toBeLessThan(theirs.medianOverpayment! * 0.8)
          }
        }
      }
    },
  )
})
