// The service end to end (`next start`, real HTTP, real auth) on fake nodes shaped like each chain
// family it serves by default, under those chains' own ids, so each chain's fee policy applies.
import { formatGwei } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startService, type Service } from '@/scripts/devnet/service'
import { BaseFeeHistorySchema, SuggestedGasFeesSchema } from '@/lib/core/schemas'
import { parseGwei } from '@/lib/core/units'
import { at } from '../support/at'
import { startFakeRpc, type FakeRpc } from '../support/fake-rpc'
import {
  arbitrumZeroTips,
  bscFastBlocks,
  flatLinea,
  mainnetBurst,
  opStackRise,
  plainChain,
  polygonQuietSpell,
} from '../support/family-chains'
import { basic } from './helpers'

const CRED: [string, string] = ['families', 'families-secret-of-test']
const GWEI = 1_000_000_000n
// Base's 2026 parameters (elasticity 5, denominator 100: +4% a block) in Holocene's extraData
const BASE_EXTRA_DATA = '0x' + '00' + '00000064' + '00000005'

let service: Service
const nodes: FakeRpc[] = []
const chains = {
  burst: { id: 1, ...mainnetBurst() },
  op: { id: 10, ...opStackRise(250n, 6) },
  base: { id: 8453, ...opStackRise(100n, 5) },
  polygon: { id: 137, ...polygonQuietSpell() },
  linea: { id: 59144, ...flatLinea() },
  bsc: { id: 56, ...bscFastBlocks() },
  arbitrum: { id: 42161, ...arbitrumZeroTips() },
  capped: { id: 11155111, ...plainChain(9_000_000) },
  nullRows: { id: 43114, ...plainChain(70_000_000) },
  short: { id: 777, ...plainChain(1_000_000) },
}

async function get(chainId: number, endpoint: string) {
  const res = await fetch(`${service.url}/networks/${chainId}/${endpoint}`, { headers: { authorization: basic(CRED) } })
  return { status: res.status, headers: res.headers, body: (await res.json()) as unknown }
}
const fees = async (chainId: number) => {
  const res = await get(chainId, 'suggestedGasFees')
  expect(res.status).toBe(200)
  return { ...SuggestedGasFeesSchema.parse(res.body), headers: res.headers }
}
const tips = (f: Awaited<ReturnType<typeof fees>>) => [f.low, f.medium, f.high].map((l) => parseGwei(l.suggestedMaxPriorityFeePerGas))
const caps = (f: Awaited<ReturnType<typeof fees>>) =>
  [f.low, f.medium, f.high].map((l) => parseGwei(l.suggestedMaxFeePerGas) - parseGwei(l.suggestedMaxPriorityFeePerGas))
/** next × (1 + ppm/10⁶)^k, rounded up at each step. */
function grown(next: bigint, ppm: bigint, k: number): bigint {
  let v = next
  for (let i = 0; i < k; i++) v = (v * (1_000_000n + ppm) + 999_999n) / 1_000_000n
  return v
}
/** The rises over low's horizon: three cache periods of answer age, in blocks of the stated interval, plus low's 6, less the next block's (known). */
const rises = (headers: Headers) => {
  const interval = Number(headers.get('x-block-interval-ms'))
  return Math.ceil((3 * Math.min(60_000, Math.max(1_000, interval))) / interval - 1e-9) + 5
}

beforeAll(async () => {
  const shapes: Record<string, Parameters<typeof startFakeRpc>[0]> = {
    burst: { chainId: 1, ...chains.burst },
    op: { chainId: 10, ...chains.op },
    base: { chainId: 8453, ...chains.base, extraData: BASE_EXTRA_DATA },
    polygon: { chainId: 137, ...chains.polygon },
    linea: { chainId: 59144, ...chains.linea },
    bsc: { chainId: 56, ...chains.bsc, finalizedDepth: 2 },
    arbitrum: { chainId: 42161, ...chains.arbitrum },
    capped: { chainId: 11155111, ...chains.capped, feeHistoryCap: 100 },
    nullRows: { chainId: 43114, ...chains.nullRows, emptyRewards: 'null' },
    short: { chainId: 777, ...chains.short, mode: 'short-history' },
  }
  const env: Record<string, string> = {
    API_KEYS: CRED.join(':'),
    RATE_LIMITS: `${CRED[0]}=0`,
    USE_PUBLIC_RPCS: 'false',
    REQUEST_LOG: 'false',
    RPC_TIMEOUT_MS: '3000',
    // the fake chains' heads are old by the wall clock
    MAX_HEAD_AGE_SECONDS: '0',
  }
  for (const shape of Object.values(shapes)) {
    const node = await startFakeRpc(shape)
    nodes.push(node)
    env[`RPC_URL_${shape.chainId}`] = node.url
  }
  service = await startService({ env })
}, 180_000)

afterAll(async () => {
  await service?.stop()
  for (const n of nodes) await n.close()
})

describe('chain families end to end', () => {
  test('behavior: Polygon PoS after a quiet spell of empty and zero-tip blocks: no tip below 30 gwei (validators refuse under 25)', async () => {
    const f = await fees(137)
    for (const t of tips(f)) expect(t >= 30n * GWEI).toBe(true)
  })

  test("behavior: an OP-stack rise (30 full blocks at its 2% a block): the max fees' forecast follows the chain's own 2% a block, neither Ethereum's 12.5% nor flat", async () => {
    const f = await fees(10)
    const next = parseGwei(f.estimatedBaseFee)
    expect(next).toBe(chains.op.nextBaseFee)
    // low's horizon (the answer's age and its 6 blocks) at 2% a block, within 3% either way (a forecast,
    // not the bound: this head carries no extraData, so 2% is only assumed); every level the same or less
    const twoPercent = grown(next, 20_000n, rises(f.headers))
    for (const cap of caps(f)) expect(cap <= (twoPercent * 103n) / 100n).toBe(true)
    expect(at(caps(f), 2) >= (twoPercent * 97n) / 100n).toBe(true)
    expect(at(caps(f), 2) < grown(next, 125_000n, 4)).toBe(true)
    // op-geth's 0.001 gwei floor over deposit-only blocks
    for (const t of tips(f)) expect(t >= GWEI / 1000n).toBe(true)
  })

  test("behavior: Base's live parameters from the block's extraData (+4% a block) are its bound: no max fee above it, and its rise is followed up to it", async () => {
    const f = await fees(8453)
    const bound = grown(parseGwei(f.estimatedBaseFee), 40_000n, rises(f.headers))
    for (const cap of caps(f)) expect(cap <= bound).toBe(true)
    expect(at(caps(f), 2) >= (bound * 97n) / 100n).toBe(true)
  })

  test('behavior: flat Linea (7 wei): congestion is mid-range and agrees with busyThreshold', async () => {
    const f = await fees(59144)
    const busy = await get(59144, 'busyThreshold')
    expect(busy.body).toEqual({ busyThreshold: '0.000000007' })
    expect(f.estimatedBaseFee).toBe('0.000000007')
    expect(f.networkCongestion).toBe(0.5)
  })

  test("behavior: BSC, zero base fee and 0.45 s blocks: tips at the validators' floor or above, the interval measured over ≥ 64 blocks", async () => {
    const f = await fees(56)
    expect(f.estimatedBaseFee).toBe('0')
    expect(f.networkCongestion).toBe(0.5)
    for (const t of tips(f)) expect(t >= GWEI / 10n).toBe(true)
    // the finalized block is 2 back: the interval comes from the window's oldest block instead
    const blocks = chains.bsc.blocks
    const expected = Math.round(((at(blocks, -1).timestamp - at(blocks, 0).timestamp) * 1000) / (blocks.length - 1))
    expect(Number(f.headers.get('x-block-interval-ms'))).toBe(expected)
    expect(f.medium.maxWaitTimeEstimate).toBe(3 * expected)
  })

  test('behavior: Arbitrum ignores tips: every level suggests 0 whatever the blocks carry', async () => {
    expect(tips(await fees(42161))).toEqual([0n, 0n, 0n])
  })

  test('behavior: a two-block burst at 300 gwei 15 blocks ago in a calm 1 gwei market does not set the price', async () => {
    expect(tips(await fees(1))).toEqual([GWEI, GWEI, GWEI])
  })

  test('behavior: a node that caps eth_feeHistory at 100 blocks still gives the whole 500-block history', async () => {
    const res = await get(11155111, 'baseFeeHistory')
    expect(res.status).toBe(200)
    const history = BaseFeeHistorySchema.parse(res.body)
    expect(history).toEqual(chains.capped.blocks.map((b) => formatGwei(b.baseFee)))
  })

  test('error: a node that cannot serve more than 100 blocks is refused (502), never served as the 500-block history', async () => {
    const res = await get(777, 'baseFeeHistory')
    expect(res.status).toBe(502)
    expect((res.body as { message: string }).message).toMatch(/served 100 of the 500 blocks/)
  })

  test('behavior: empty blocks whose reward rows come back as null are blocks without tips, not a 502', async () => {
    const f = await fees(43114)
    const withTips = chains.nullRows.blocks.filter((b) => b.tips.length > 0)
    expect(f.latestPriorityFeeRange).toEqual(['0.1', '1'])
    expect(withTips.length).toBeLessThan(chains.nullRows.blocks.length)
  })
})
