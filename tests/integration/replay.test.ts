// The service end to end on replays of real recorded windows (scripts/replay): the real mainnet
// window with every transaction, and Polygon PoS's fee history, each under its own chain id.
import { formatGwei } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { loadSharedDatasets } from '@/scripts/backtest/datasets'
import { startService, type Service } from '@/scripts/devnet/service'
import { BaseFeeHistorySchema, SuggestedGasFeesSchema } from '@/lib/core/contract/schemas'
import { parseGwei } from '@/lib/core/units'
import { startReplayNode, type ReplayNode } from '@/scripts/replay/replay-node'
import { at } from '../support/at'
import { SHARED_DATA } from '../support/shared-data'
import { basic, eventually } from './helpers'

const CRED: [string, string] = ['replay', 'replay-secret-of-the-test']
const datasets = loadSharedDatasets(SHARED_DATA)
const mainnet = datasets.find((d) => d.name === 'mainnet-100-blocks-txs')!.recording
const polygon = datasets.find((d) => d.name === 'polygon-1024-feehistory')!.recording

let service: Service
let mainnetNode: ReplayNode
let polygonNode: ReplayNode

async function get(chainId: number, endpoint: string) {
  const res = await fetch(`${service.url}/networks/${chainId}/${endpoint}`, { headers: { authorization: basic(CRED) } })
  return { status: res.status, headers: res.headers, body: (await res.json()) as unknown }
}

beforeAll(async () => {
  // a block a second: mainnet's 12 s slots at 12×, Polygon's 2 s blocks at 2×
  mainnetNode = await startReplayNode({ recording: mainnet, startAt: 40, speed: 12 })
  polygonNode = await startReplayNode({ recording: polygon, startAt: 600, speed: 2 })
  service = await startService({
    env: {
      API_KEYS: CRED.join(':'),
      RATE_LIMITS: `${CRED[0]}=0`,
      USE_PUBLIC_RPCS: 'false',
      REQUEST_LOG: 'false',
      RPC_URL_1: mainnetNode.url,
      RPC_URL_137: polygonNode.url,
    },
  })
}, 180_000)

afterAll(async () => {
  await service?.stop()
  await mainnetNode?.close()
  await polygonNode?.close()
})

describe('replay of real mainnet blocks 15,627,832–931 (every transaction)', () => {
  test("behavior: the history is the recording's base fees up to the replayed head, and the next base fee the recorded next block's", async () => {
    const res = await get(1, 'baseFeeHistory')
    expect(res.status).toBe(200)
    const head = Number(res.headers.get('x-block-number'))
    const history = BaseFeeHistorySchema.parse(res.body)
    // the replayed chain begins with the recording: a young chain's history is all of its blocks
    expect(history).toEqual(mainnet.blocks.slice(0, head + 1).map((b) => formatGwei(BigInt(b.baseFeePerGas))))
    const fees = await get(1, 'suggestedGasFees')
    const block = Number(fees.headers.get('x-block-number'))
    expect(SuggestedGasFeesSchema.parse(fees.body).estimatedBaseFee).toBe(formatGwei(BigInt(at(mainnet.blocks, block + 1).baseFeePerGas)))
  })

  test("behavior: the latest priority fee range is the real block's smallest and largest effective tip", async () => {
    const res = await get(1, 'suggestedGasFees')
    const block = at(mainnet.blocks, Number(res.headers.get('x-block-number')))
    const tips = (block.txs ?? []).map((t) => BigInt(t.tip)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    expect(tips.length).toBeGreaterThan(0)
    expect(SuggestedGasFeesSchema.parse(res.body).latestPriorityFeeRange).toEqual([formatGwei(at(tips, 0)), formatGwei(at(tips, -1))])
  })

  test('behavior: the replay runs in real time: later answers come from later recorded blocks', async () => {
    const first = Number((await get(1, 'busyThreshold')).headers.get('x-block-number'))
    await eventually(async () => {
      const res = await get(1, 'busyThreshold')
      return Number(res.headers.get('x-block-number')) > first && res.headers.get('x-data-stale') === 'false' ? true : undefined
    }, 'an answer from a later recorded block')
  })
})

describe('replay of Polygon PoS fee history (blocks 82,814,697–82,815,720)', () => {
  test('behavior: real Polygon base fees pass its ±5% protocol bound; with no tip data, no tip is below 30 gwei', async () => {
    const res = await get(137, 'suggestedGasFees')
    expect(res.status).toBe(200)
    const fees = SuggestedGasFeesSchema.parse(res.body)
    for (const l of [fees.low, fees.medium, fees.high]) expect(parseGwei(l.suggestedMaxPriorityFeePerGas) >= 30_000_000_000n).toBe(true)
    const block = Number(res.headers.get('x-block-number'))
    expect(fees.estimatedBaseFee).toBe(formatGwei(BigInt(at(polygon.blocks, block + 1).baseFeePerGas)))
    // a 500-block window: the replay started 600 blocks in
    expect(BaseFeeHistorySchema.parse((await get(137, 'baseFeeHistory')).body)).toHaveLength(500)
  })
})
