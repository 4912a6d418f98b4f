// The service end to end (`next start`, real HTTP, real auth) on fake nodes shaped like each chain
// family it serves by default, under those chains' own ids, so each chain's fee policy applies.
import { formatGwei, serializeTransaction } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startService, type Service } from '@/scripts/devnet/service'
import { BaseFeeForecastSchema, BaseFeeHistorySchema, SuggestedGasFeesSchema, TransactionCostSchema } from '@/lib/core/contract/schemas'
import { privateKeyToAccount } from 'viem/accounts'
import { fjordL1Cost, flzCompressedLength } from '@/lib/core/fee-math/l1-fee'
import { parseGwei } from '@/lib/core/units'
import { at } from '../support/at'
import { startFakeRpc, type FakeRpc } from '../support/fake-rpc'
import {
  arbitrumZeroTips,
  bscFastBlocks,
  flatLinea,
  mainnetBurst,
  chainOf,
  opStackAtFloor,
  opStackFallingToFloor,
  opStackRise,
  plainChain,
  polygonQuietSpell,
} from '../support/family-chains'
import { basic } from './helpers'

const CRED: [string, string] = ['families', 'families-secret-of-test']
const GWEI = 1_000_000_000n
// Base's 2026 parameters (elasticity 5, denominator 100: +4% a block) in Holocene's extraData
const BASE_EXTRA_DATA = '0x' + '00' + '00000064' + '00000005'
// Jovian's extraData: version 1, denominator 250, elasticity 6, minimum base fee 0.005 gwei (5,000,000 wei)
const JOVIAN_MIN = 5_000_000n
const JOVIAN_EXTRA_DATA = '0x' + '01' + '000000fa' + '00000006' + JOVIAN_MIN.toString(16).padStart(16, '0')
// GasPriceOracle.t.sol's Fjord parameters (getL1FeeUpperBound(161) = 111,214 wei), and an operator fee
const OP_PREDEPLOYS = {
  l1BaseFee: 2_000_000n,
  blobBaseFee: 3_000_000n,
  baseFeeScalar: 20,
  blobBaseFeeScalar: 15,
  operatorFeeScalar: 3,
  operatorFeeConstant: 1_000n,
}
// ArbGasInfo.getPricesInWei(): per L2 tx, per L1 calldata byte (16 × the L1 price per unit), per storage, per ArbGas base, congestion, total
const ARB_PRICES = [224_000_000n, 1_600_000n, 2_000_000_000_000n, 20_000_000n, 0n, 20_000_000n]

let service: Service
const nodes: FakeRpc[] = []
/** Each fake node's URL, by chain id. */
const nodeUrls: Record<number, string> = {}
/** The OP-stack predeploys' Fjord values as the window carries them (decimal strings). */
const opParams = () => ({
  l1BaseFee: OP_PREDEPLOYS.l1BaseFee.toString(),
  blobBaseFee: OP_PREDEPLOYS.blobBaseFee.toString(),
  baseFeeScalar: OP_PREDEPLOYS.baseFeeScalar,
  blobBaseFeeScalar: OP_PREDEPLOYS.blobBaseFeeScalar,
  operatorFeeScalar: OP_PREDEPLOYS.operatorFeeScalar,
  operatorFeeConstant: OP_PREDEPLOYS.operatorFeeConstant.toString(),
})
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
  // Zora (an OP-stack chain viem knows by its GasPriceOracle) at its Jovian floor of 0.005 gwei
  zoraFloor: { id: 7777777, ...opStackAtFloor(JOVIAN_MIN) },
  // Unichain falling onto its Jovian floor, 1 s blocks, an Isthmus GasPriceOracle
  unichainFalling: { id: 130, ...opStackFallingToFloor(JOVIAN_MIN, 250n) },
  // a Sepolia-like chain on Ethereum's rule (Hoodi's id, bounds enforced by configuration): a flat 25 gwei
  ethereumFlat: {
    id: 560048,
    ...chainOf(
      Array.from({ length: 500 }, () => ({ baseFee: 25n * GWEI, ratio: 0.3, tips: [GWEI] })),
      { head: 2_000_000, slotMs: 12_000, next: 25n * GWEI },
    ),
  },
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
    ethereumFlat: { chainId: 560048, ...chains.ethereumFlat },
    zoraFloor: {
      chainId: 7777777,
      ...chains.zoraFloor,
      extraData: JOVIAN_EXTRA_DATA,
      opStackPredeploys: { fork: 'jovian', ...OP_PREDEPLOYS },
    },
    unichainFalling: {
      chainId: 130,
      ...chains.unichainFalling,
      extraData: JOVIAN_EXTRA_DATA,
      opStackPredeploys: { fork: 'isthmus', ...OP_PREDEPLOYS },
    },
  }
  shapes.arbitrum = { ...shapes.arbitrum!, arbGasInfoPrices: ARB_PRICES, gasLimit: 32_000_000 }
  const env: Record<string, string> = {
    API_KEYS: CRED.join(':'),
    RATE_LIMITS: `${CRED[0]}=0`,
    USE_PUBLIC_RPCS: 'false',
    REQUEST_LOG: 'false',
    RPC_TIMEOUT_MS: '3000',
    // the fake chains' heads are old by the wall clock
    MAX_HEAD_AGE_SECONDS: '0',
    CHAIN_FEE_POLICIES: JSON.stringify({ 560048: { enforceBaseFeeBounds: true } }),
  }
  for (const shape of Object.values(shapes)) {
    const node = await startFakeRpc(shape)
    nodes.push(node)
    env[`RPC_URL_${shape.chainId}`] = node.url
    nodeUrls[shape.chainId] = node.url
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

describe('headroom at the floor and transactionCost, end to end', () => {
  test.each([
    ["a Sepolia-like chain, flat 25 gwei, Ethereum's rule (+12.5%)", 560048, 125_000n],
    ['an OP-stack chain at its Jovian floor, extraData denominator 250, elasticity 6 (+2%)', 7777777, 20_000n],
    ['an OP-stack chain falling onto its Jovian floor (+2%)', 130, 20_000n],
    ['Arbitrum One at its minimum (policy +17%)', 42161, 170_000n],
    ['Linea at 7 wei (assumed +12.5%: 1 wei)', 59144, 125_000n],
  ])("report: %s: every level's (max fee − tip) ÷ next base fee is at least one full block's rise", async (name, chainId, ppm) => {
    const f = await fees(chainId)
    const next = parseGwei(f.estimatedBaseFee)
    const ratios = caps(f).map((c) => Number((c * 1_000_000n) / next) / 1e6)
    console.log(`${name}: next ${f.estimatedBaseFee} gwei; low / medium / high ${ratios.map((r) => r.toFixed(4)).join(' / ')}`)
    for (const cap of caps(f)) expect(cap >= grown(next, ppm, 1)).toBe(true)
  })

  /** GET transactionCost of a chain, parsed with the service's own schema. */
  const cost = async (chainId: number, query: string) => {
    const res = await get(chainId, `transactionCost?${query}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return { ...TransactionCostSchema.parse(res.body), headers: res.headers }
  }

  test('behavior: an OP-stack chain at its Jovian floor: every level leaves one full block of headroom at its extraData (+2%), not 0', async () => {
    const f = await fees(7777777)
    const next = parseGwei(f.estimatedBaseFee)
    expect(next).toBe(JOVIAN_MIN)
    for (const cap of caps(f)) expect(cap >= next + (next * 5n) / 250n).toBe(true)
  })

  test('behavior: Arbitrum at its 0.02 gwei minimum: every level leaves the documented policy minimum (+17%) of headroom', async () => {
    const f = await fees(42161)
    const next = parseGwei(f.estimatedBaseFee)
    for (const cap of caps(f)) expect(cap >= next + (next * 17n) / 100n).toBe(true)
  })

  test("behavior: an OP-stack chain falling onto its Jovian floor: no forecast quantile below the extraData's minimum, and the caps keep one block of headroom", async () => {
    const res = await get(130, 'baseFeeForecast')
    expect(res.status).toBe(200)
    const forecast = BaseFeeForecastSchema.parse(res.body)
    const next = parseGwei(forecast.estimatedBaseFee)
    expect(next > JOVIAN_MIN).toBe(true)
    for (const h of forecast.horizons) for (const q of [h.p50, h.p90, h.p99]) expect(parseGwei(q) >= JOVIAN_MIN).toBe(true)
    // the fall would take +10 under the minimum: the floor is what holds it
    expect(parseGwei(at(forecast.horizons, -1).p50)).toBe(JOVIAN_MIN)
    for (const cap of caps(await fees(130))) expect(cap >= next + (next * 5n) / 250n).toBe(true)
  })

  test("default: OP-stack transactionCost with txBytes: GasPriceOracle.getL1FeeUpperBound's value, the Jovian operator fee, and each level's fee and maxFee", async () => {
    const c = await cost(7777777, 'gas=21000&txBytes=161')
    const f = await fees(7777777)
    expect(c.blockNumber).toBe(Number(f.headers.get('x-block-number')))
    // GasPriceOracle.t.sol: getL1FeeUpperBound(161) = 111,214 wei at these parameters
    expect(parseGwei(c.l1DataFee!)).toBe(111_214n)
    // Jovian: 21,000 × 3 × 100 + 1,000
    expect(parseGwei(c.operatorFee!)).toBe(6_301_000n)
    for (const level of ['low', 'medium', 'high'] as const) {
      const tip = parseGwei(f[level].suggestedMaxPriorityFeePerGas)
      expect(parseGwei(c[level].fee)).toBe(21_000n * (parseGwei(f.estimatedBaseFee) + tip) + 111_214n + 6_301_000n)
      const maxFee = parseGwei(c[level].maxFee)
      // the max fee's gas part, and the L1 fee grown by at least one L1 block's 12.5%
      expect(maxFee >= 21_000n * parseGwei(f[level].suggestedMaxFeePerGas) + (111_214n * 1125n) / 1000n + 6_301_000n).toBe(true)
    }
    // the same freshness headers as every endpoint
    expect(c.headers.get('x-data-stale')).toBe('false')
  })

  test("behavior: OP-stack transactionCost with tx: the Fjord fee at the FastLZ size of that transaction signed with a real key; an Isthmus chain's operator fee", async () => {
    // an ERC-20 transfer with 1 KB of varied calldata after it: above the Fjord minimum size
    const extra = Array.from({ length: 1_024 }, (_, i) => ((i * 7919) % 251).toString(16).padStart(2, '0')).join('')
    const request = {
      type: 'eip1559',
      chainId: 130,
      nonce: 12,
      gas: 65_000n,
      maxFeePerGas: 10_000_000n,
      maxPriorityFeePerGas: 1_000_000n,
      to: '0x078d782b760474a361dda0af3839290b0ef57ad6',
      data: `0xa9059cbb${'00'.repeat(12)}${'22'.repeat(20)}${1_000_000n.toString(16).padStart(64, '0')}${extra}`,
    } as const
    const tx = serializeTransaction(request)
    const signed = await privateKeyToAccount(`0x${'5a'.repeat(32)}`).signTransaction(request)
    const c = await cost(130, `gas=65000&tx=${tx}`)
    expect(c.txBytes).toBe((tx.length - 2) / 2)
    expect(parseGwei(c.l1DataFee!)).toBe(fjordL1Cost(BigInt(flzCompressedLength(signed)), opParams()))
    expect(c.l1DataFeeBasis).toBe('exact')
    // Isthmus: 65,000 × 3 / 10^6 + 1,000 (rounded down)
    expect(parseGwei(c.operatorFee!)).toBe(1_000n)
  })

  test("behavior: Arbitrum transactionCost: ArbGasInfo's price per L1 calldata byte × the signed size, no operator fee; the plain transfer's size by default", async () => {
    const c = await cost(42161, 'gas=21000')
    expect(c.txBytes).toBe(51)
    expect(parseGwei(c.l1DataFee!)).toBe((51n + 68n) * 1_600_000n)
    expect(c.operatorFee).toBe('0')
    // tips are ignored there: the likely fee is the gas at the next base fee plus the L1 component
    const f = await fees(42161)
    expect(parseGwei(c.medium.fee)).toBe(21_000n * parseGwei(f.estimatedBaseFee) + (51n + 68n) * 1_600_000n)
  })

  test('behavior: chains with no L1 fee answer "0"; the totals are the gas alone', async () => {
    for (const chainId of [1, 59144]) {
      const c = await cost(chainId, 'gas=65000&txBytes=113')
      expect([c.l1DataFee, c.operatorFee]).toEqual(['0', '0'])
      const f = await fees(chainId)
      expect(parseGwei(c.high.maxFee)).toBe(65_000n * parseGwei(f.high.suggestedMaxFeePerGas))
    }
  })

  test.each([
    [1, 'gas=16777217', /gas.*16777216/],
    [42161, 'gas=32000001', /gas.*32000000/],
    [7777777, 'gas=30000001', /gas.*30000000/],
    [7777777, 'gas=21000&txBytes=131073', /txBytes/],
    [7777777, 'gas=21000&tx=0x1234', /tx/],
    [7777777, 'gas=21000&txBytes=51&tx=0x1234', /txBytes/],
    [7777777, 'gas=2.1e4', /gas/],
    [7777777, 'txBytes=51', /gas.*missing/],
    [7777777, 'gas=21000&foo=1', /foo/],
  ])('error: chain %i, %s: 400 with a JSON message naming the parameter', async (chainId, query, message) => {
    const res = await get(chainId, `transactionCost?${query}`)
    expect(res.status).toBe(400)
    expect((res.body as { message: string }).message).toMatch(message)
  })

  test("behavior: requests on one block make no upstream call of their own: the predeploys are read with the window's read only", async () => {
    const node = nodes.find((n) => n.url === nodeUrls[7777777])!
    const before = {
      calls: node.calls.filter((m) => m === 'eth_call').length,
      reads: node.calls.filter((m) => m === 'eth_feeHistory').length,
    }
    // one after another, so that a read per request could not be merged into one
    const started = Date.now()
    let interval = 0
    for (let i = 0; i < 20; i++)
      interval = Number((await cost(7777777, `gas=${21_000 + i}&txBytes=${100 + i}`)).headers.get('x-block-interval-ms'))
    const elapsed = Date.now() - started
    const calls = node.calls.filter((m) => m === 'eth_call').length - before.calls
    const reads = node.calls.filter((m) => m === 'eth_feeHistory').length - before.reads
    // the getters travel with a read (nine, six once the forks are known), none per request
    expect(calls).toBeLessThanOrEqual(9 * reads)
    // at most the feed's own reads over that time (one a block interval, and one due at the start), never one a request
    expect(reads).toBeLessThanOrEqual(Math.floor(elapsed / interval) + 1)
    expect(reads).toBeLessThan(20)
  })
})
