import { describe, expect, test } from 'vitest'
import { loadErigonFixtures } from '@/scripts/backtest/datasets'
import { weightedPercentile } from '@/lib/core/evaluation/judge'
import { fromJsonLines, recordBlock, toJsonLines, type Recording } from '@/scripts/record/recording'
import { at } from '../../support/at'
import { erigonFixture, sharedDataPath } from '../../support/shared-data'

describe('recording format', () => {
  test('behavior: JSON lines round-trip; blocks come back sorted; gaps are refused', () => {
    const rec: Recording = {
      header: { format: 'gas-api-blocks/1', chainId: 5, source: 't', tipData: 'full' },
      blocks: [
        { number: 11, timestamp: 2, baseFeePerGas: '7', gasUsed: 1, gasLimit: 2, txs: [{ tip: '1', gas: 21000 }] },
        { number: 10, timestamp: 1, baseFeePerGas: '8', gasUsed: 1, gasLimit: 2, txs: [] },
      ],
    }
    const back = fromJsonLines(toJsonLines(rec))
    expect(back.blocks.map((b) => b.number)).toEqual([10, 11])
    expect(back.header).toEqual(rec.header)
    expect(() => fromJsonLines(toJsonLines({ ...rec, blocks: [at(rec.blocks, 0), { ...at(rec.blocks, 1), number: 9 }] }))).toThrow(
      /consecutive/,
    )
    expect(() => fromJsonLines('{"format":"other"}')).toThrow(/gas-api-blocks/)
  })

  test('error: a line that is not JSON is named; a first line that is not JSON is not a recording', () => {
    expect(() => fromJsonLines('{"format":"gas-api-blocks/1","chainId":1}\n\n{"number": 1,\n')).toThrow(/^line 3 is not JSON \(/)
    expect(() => fromJsonLines('block_number,basefee_wei\n1,2\n')).toThrow(/^not a gas-api-blocks\/1 recording: line 1 is not JSON \(/)
  })
})

describe('erigon fixtures', () => {
  test("behavior: block 16,000,000's largest effective tip equals eth_feeHistory's p100 for it", () => {
    const block =
      erigonFixture('mainnet', 'eth_getBlockByNumber', 'test_02').response.result ??
      erigonFixture('mainnet', 'eth_getBlockByNumber', 'test_04').response.result
    const fh = erigonFixture('mainnet', 'eth_feeHistory', 'test_05').response.result as { oldestBlock: string; reward: string[][] }
    const recorded = loadErigonFixtures(sharedDataPath('erigon-rpc-tests-fixtures', 'integration')).find(
      (d) => d.name === 'erigon-mainnet-block-16000000',
    )
    expect(recorded, 'block 16,000,000 is among the fixtures').toBeDefined()
    const txs = at(recorded!.recording.blocks, 0)
      .txs!.map((t) => ({ tip: BigInt(t.tip), gas: t.gas }))
      .sort((a, b) => (a.tip < b.tip ? -1 : 1))
    const index = Number(fh.oldestBlock) === 16_000_000 ? 0 : 1
    expect(weightedPercentile(txs, 100)).toBe(BigInt(at(at(fh.reward, index), 0)))
    expect(block).toBeDefined()
  })

  test("behavior: with receipts, recorded gas adds up to the block's gasUsed (block 18,000,000)", () => {
    const recorded = loadErigonFixtures(sharedDataPath('erigon-rpc-tests-fixtures', 'integration')).find(
      (d) => d.name === 'erigon-mainnet-block-18000000',
    )
    expect(recorded).toBeDefined()
    const b = at(recorded!.recording.blocks, 0)
    expect(b.txs!.reduce((s, t) => s + t.gas, 0)).toBe(b.gasUsed)
  })

  test('behavior: recordBlock derives type-2 tips from the fee caps when no receipt is given', () => {
    const b = recordBlock({
      number: '0x1',
      timestamp: '0x2',
      baseFeePerGas: '0x64',
      gasUsed: '0x5208',
      gasLimit: '0xa410',
      transactions: [
        { hash: '0xa', maxFeePerGas: '0x96', maxPriorityFeePerGas: '0x0a', gas: '0x5208' }, // min(10, 150 − 100) = 10
        { hash: '0xb', maxFeePerGas: '0x6e', maxPriorityFeePerGas: '0x32', gas: '0x5208' }, // min(50, 110 − 100) = 10
        { hash: '0xc', gasPrice: '0x78', gas: '0x5208' }, // 120 − 100 = 20
      ],
    })
    expect(b.txs!.map((t) => t.tip)).toEqual(['10', '10', '20'])
  })
})
