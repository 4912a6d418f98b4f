import { afterEach, expect, test } from 'vitest'
import { toBlockStats } from '@/scripts/backtest/block-stats'
import { FINE_PERCENTILES, recordBlocks } from '@/scripts/record/record-blocks'
import { at } from '../../support/at'
import { startFakeRpc, type FakeRpc } from '../../support/fake-rpc'
import { mainnetFakeChain } from '../../support/mainnet-blocks'

let server: FakeRpc | undefined
afterEach(async () => {
  await server?.close()
})

test('behavior: a node without full blocks is recorded from eth_feeHistory on a fine percentile grid', async () => {
  const chain = mainnetFakeChain()
  server = await startFakeRpc({ chainId: 1, ...chain })
  const rec = await recordBlocks({ url: server.url, count: 50 })
  expect(rec.header).toMatchObject({ chainId: 1, tipData: 'percentiles', percentiles: FINE_PERCENTILES, nominalBlockIntervalMs: 12_000 })
  expect(rec.blocks).toHaveLength(50)
  expect(at(rec.blocks, 0).number).toBe(15_627_882)
  expect(at(rec.blocks, 49).baseFeePerGas).toBe(String(at(chain.blocks, 99).baseFee))
  expect(at(rec.blocks, 0).rewards).toHaveLength(FINE_PERCENTILES.length)
  expect(server.calls).toContain('eth_feeHistory')
  // the backtest can use it: the grid holds the percentiles the demanded-tip rule needs
  const stats = toBlockStats(rec)
  expect(stats.tipsKnown).toBe(true)
  expect(stats.intervalMs).toBe(12_000)
})
