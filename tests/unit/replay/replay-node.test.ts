import { afterEach, describe, expect, test, vi } from 'vitest'
import type { Recording } from '@/scripts/record/recording'
import { rewardRow, startReplayNode, type ReplayNode } from '@/scripts/replay/replay-node'

const GWEI = 1_000_000_000n
/** A 10-block recording: base fee n gwei at block n, two transactions each (tips n and 10n gwei, 21,000 and 63,000 gas). */
const recording: Recording = {
  header: { format: 'gas-api-blocks/1', chainId: 1, source: 'literal', tipData: 'full', nominalBlockIntervalMs: 12_000 },
  blocks: Array.from({ length: 10 }, (_, n) => ({
    number: 15_000_000 + n,
    baseFeePerGas: String(BigInt(n + 1) * GWEI),
    gasUsed: 15_000_000,
    gasLimit: 30_000_000,
    txs: [
      { tip: String(BigInt(n + 1) * GWEI), gas: 21_000 },
      { tip: String(BigInt(n + 1) * 10n * GWEI), gas: 63_000 },
    ],
  })),
}

let node: ReplayNode | undefined
afterEach(async () => {
  vi.useRealTimers()
  await node?.close()
})

async function rpc<T>(method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(node!.url, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const body = (await res.json()) as { result?: T; error?: { message: string } }
  if (body.error) throw new Error(body.error.message)
  return body.result as T
}

describe('rewardRow', () => {
  test('default: gas-weighted percentiles of the recorded tips, as geth computes them', () => {
    // block 0: 21,000 gas at 1 gwei, 63,000 gas at 10 gwei: the first quarter of the gas is at 1 gwei
    expect(rewardRow(recording.blocks[0]!, [0, 25, 26, 100])).toEqual(['0x3b9aca00', '0x3b9aca00', '0x2540be400', '0x2540be400'])
  })
  test('behavior: a recording without per-transaction tips sends no reward row rather than invent one', () => {
    expect(rewardRow({ number: 1, baseFeePerGas: '1', gasUsed: 1, gasLimit: 2, rewards: ['5'] }, [50])).toBeNull()
  })
})

describe('startReplayNode', () => {
  test('behavior: block i of the recording is block i of the replayed chain; the head advances one block per interval, then stops', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    node = await startReplayNode({ recording, startAt: 4, speed: 12 }) // 1 s blocks
    expect(node.intervalMs).toBe(1_000)
    expect(Number(await rpc<string>('eth_blockNumber'))).toBe(4)
    vi.advanceTimersByTime(2_000)
    expect(Number(await rpc<string>('eth_blockNumber'))).toBe(6)
    vi.advanceTimersByTime(60_000)
    expect(Number(await rpc<string>('eth_blockNumber'))).toBe(9)
  })

  test("behavior: eth_feeHistory serves the recorded window up to the head, with the next block's base fee", async () => {
    const before = Date.now()
    node = await startReplayNode({ recording, startAt: 5 })
    const fh = await rpc<{ oldestBlock: string; baseFeePerGas: string[]; gasUsedRatio: number[]; reward: string[][] }>('eth_feeHistory', [
      '0x1f4',
      'latest',
      [0, 100],
    ])
    expect(Number(fh.oldestBlock)).toBe(0) // the replayed chain begins with the recording
    expect(fh.baseFeePerGas.map((h) => BigInt(h))).toEqual([1n, 2n, 3n, 4n, 5n, 6n, 7n].map((n) => n * GWEI))
    expect(fh.gasUsedRatio).toEqual(Array(6).fill(0.5))
    expect(fh.reward[5]).toEqual([`0x${(6n * GWEI).toString(16)}`, `0x${(60n * GWEI).toString(16)}`])
    const head = await rpc<{ number: string; baseFeePerGas: string; timestamp: string }>('eth_getBlockByNumber', ['latest', false])
    expect(Number(head.number)).toBe(5)
    // laid on the wall clock: the start block is dated when the replay started
    expect(Number(head.timestamp)).toBeGreaterThanOrEqual(Math.floor(before / 1000))
    expect(Number(head.timestamp)).toBeLessThanOrEqual(Date.now() / 1000)
    expect(await rpc('eth_getBlockByNumber', ['0x6', false])).toBeNull() // not yet
    await expect(rpc('eth_feeHistory', ['0x1', '0x9', []])).rejects.toThrow(/invalid block range/)
  })
})
