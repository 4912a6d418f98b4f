// The L1 fee parameters, read at one block: the predeploys' getters of each rule (OP-stack, Arbitrum,
// Scroll, Mantle) through one Multicall3 aggregate3, or pinned eth_calls where the chain has no Multicall3;
// and, through readFeeWindow, at the block the window names. Predeploys in memory (predeploy-node.ts),
// the window's other calls from the fake chain node.
import { createClient, custom, type Client } from 'viem'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { REWARD_PERCENTILES } from '@/lib/core/fee-math/estimator'
import type { L1FeeParams } from '@/lib/core/types'
import { multicall3Address } from '@/lib/upstream/multicall3'
import { readFeeWindow } from '@/lib/upstream/read-fee-window'
import { l1FeeParamsAt, readL1FeeParams, readL1FeeParamsAtHead } from '@/lib/upstream/read-l1-fee-params'
import { startFakeRpc, type FakeBlock, type FakeRpc } from '../../support/fake-rpc'
import { ethCallHandler, MULTICALL3, predeployNode, routeEthCalls, type Contracts } from './predeploy-node'

const GPO = '0x420000000000000000000000000000000000000F'
const L1_BLOCK = '0x4200000000000000000000000000000000000015'
const ARB_GAS_INFO = '0x000000000000000000000000000000000000006C'
const SCROLL_ORACLE = '0x5300000000000000000000000000000000000002'
const hex = (n: number) => `0x${n.toString(16)}`

// OP-stack at Jovian, whose L1 base fee moves with the block (L1Block is rewritten by each block's first transaction)
const opStack = (block: number, fork: 'ecotone' | 'fjord' | 'isthmus' | 'jovian' = 'jovian'): Contracts => {
  const forks = ['ecotone', 'fjord', 'isthmus', 'jovian']
  const since = (f: string) => forks.indexOf(fork) >= forks.indexOf(f)
  return {
    [GPO]: {
      l1BaseFee: 400_000_000n + BigInt(block),
      blobBaseFee: 1n,
      baseFeeScalar: 2269,
      blobBaseFeeScalar: 1_055_762,
      isEcotone: true,
      ...(since('fjord') ? { isFjord: true } : {}),
      ...(since('isthmus') ? { isIsthmus: true } : {}),
      ...(since('jovian') ? { isJovian: true } : {}),
    },
    ...(since('isthmus') ? { [L1_BLOCK]: { operatorFeeScalar: 3, operatorFeeConstant: 1000n } } : {}),
  }
}
const opStackParams = (block: number): L1FeeParams => ({
  rule: 'op-stack',
  l1BaseFee: String(400_000_000 + block),
  blobBaseFee: '1',
  baseFeeScalar: 2269,
  blobBaseFeeScalar: 1_055_762,
  isthmus: true,
  jovian: true,
  operatorFeeScalar: 3,
  operatorFeeConstant: '1000',
})
// Scroll after GalileoV2 (scroll-revm l1block.rs test_rollup_fee_galileo's parameters)
const scroll = (isGalileo: boolean | 'missing' = true): Contracts => ({
  [SCROLL_ORACLE]: {
    l1BaseFee: 1_000_000_000n,
    l1BlobBaseFee: 1_000_000_000n,
    commitScalar: 2_394_981_796n,
    blobScalar: 1_019_097_245n,
    penaltyFactor: 10_000n,
    isCurie: true,
    isFeynman: true,
    ...(isGalileo === 'missing' ? {} : { isGalileo }),
  },
})
// Mantle after Arsia (mantle op-geth rollup_cost_test.go's parameters): GasPriceOracle without the OP fork flags
const mantle = (isArsia = true): Contracts => ({
  [GPO]: { l1BaseFee: 1_000_000_000n, blobBaseFee: 10_000_000n, baseFeeScalar: 2, blobBaseFeeScalar: 3, tokenRatio: 1_000_000n, isArsia },
  [L1_BLOCK]: { operatorFeeScalar: 1_439_103_868, operatorFeeConstant: 1_256_417_826_609_331_460n },
})
const withoutTokenRatio = () => {
  const { tokenRatio: _, ...rest } = mantle()[GPO]!
  return rest
}
const arbitrum = (): Contracts => ({
  [ARB_GAS_INFO]: { getPricesInWei: [224_000_000n, 1_600_000n, 2_000_000_000_000n, 20_000_000n, 0n, 20_000_000n] },
})

const clientOf = (node: ReturnType<typeof predeployNode>): Client => createClient({ transport: custom({ request: ethCallHandler(node) }) })

describe('readL1FeeParams: pinned to a block', () => {
  test('default: one aggregate3 eth_call to Multicall3, at the block asked, carrying every getter', async () => {
    const node = predeployNode({ latest: 120, contractsAt: (b) => opStack(b) })
    const params = await readL1FeeParams(clientOf(node), { chainId: 10, rule: 'op-stack', block: 100 })
    expect(params).toEqual(opStackParams(100))
    expect(node.log).toHaveLength(1)
    expect(node.log[0]).toMatchObject({ to: MULTICALL3, selector: '0x82ad56cb', tag: hex(100) })
    expect(node.log[0]?.inner).toHaveLength(9)
  })

  test.each([
    [
      'op-stack at Fjord',
      'op-stack',
      (b: number) => opStack(b, 'fjord'),
      { ...opStackParams(7), isthmus: false, jovian: false, operatorFeeScalar: 0, operatorFeeConstant: '0' },
    ],
    ['op-stack at Isthmus', 'op-stack', (b: number) => opStack(b, 'isthmus'), { ...opStackParams(7), jovian: false }],
    ['arbitrum', 'arbitrum', arbitrum, { rule: 'arbitrum', perL1CalldataByte: '1600000' }],
    [
      'scroll',
      'scroll',
      () => scroll(),
      {
        rule: 'scroll',
        l1BaseFee: '1000000000',
        l1BlobBaseFee: '1000000000',
        commitScalar: '2394981796',
        blobScalar: '1019097245',
        penaltyFactor: '10000',
      },
    ],
    [
      'mantle',
      'mantle',
      () => mantle(),
      {
        rule: 'mantle',
        l1BaseFee: '1000000000',
        blobBaseFee: '10000000',
        baseFeeScalar: 2,
        blobBaseFeeScalar: 3,
        tokenRatio: '1000000',
        operatorFeeScalar: 1_439_103_868,
        operatorFeeConstant: '1256417826609331460',
      },
    ],
  ] as const)('behavior: %s: the parameters its getters answer', async (_, rule, contractsAt, expected) => {
    const node = predeployNode({ latest: 9, contractsAt })
    expect(await readL1FeeParams(clientOf(node), { chainId: 1, rule, block: 7 })).toEqual(expected)
    expect(node.log.map((c) => c.tag)).toEqual([hex(7)])
  })

  test.each([
    ['op-stack before Fjord (no isFjord getter)', 'op-stack', (b: number) => opStack(b, 'ecotone'), /Fjord/],
    ['op-stack without predeploys', 'op-stack', () => ({}), /Fjord/],
    [
      'op-stack at Isthmus whose L1Block has no operator fee getters',
      'op-stack',
      (b: number) => ({ [GPO]: opStack(b, 'isthmus')[GPO]! }),
      /operator fee/,
    ],
    ['arbitrum without ArbGasInfo', 'arbitrum', () => ({}), /ArbGasInfo/],
    ['scroll with isGalileo() false', 'scroll', () => scroll(false), /Galileo/],
    ['scroll before GalileoV2 (no isGalileo getter)', 'scroll', () => scroll('missing'), /Galileo/],
    ['mantle with isArsia() false', 'mantle', () => mantle(false), /Arsia/],
    ['mantle without tokenRatio', 'mantle', () => ({ ...mantle(), [GPO]: withoutTokenRatio() }), /Arsia getters/],
  ] as const)('behavior: %s: unavailable', async (_, rule, contractsAt, reason) => {
    const node = predeployNode({ latest: 9, contractsAt: contractsAt as (b: number) => Contracts })
    const params = await readL1FeeParams(clientOf(node), { chainId: 1, rule, block: 7 })
    expect(params).toMatchObject({ rule: 'unavailable', reason: expect.stringMatching(reason) })
  })

  test('behavior: a chain without Multicall3: one eth_call per getter, each at the block asked', async () => {
    const node = predeployNode({ latest: 120, contractsAt: (b) => opStack(b), multicall: false })
    const params = await readL1FeeParams(clientOf(node), { chainId: 10, rule: 'op-stack', block: 100 })
    expect(params).toEqual(opStackParams(100))
    expect(node.log.map((c) => c.to)).toEqual([MULTICALL3, ...Array(9).fill(expect.not.stringMatching(MULTICALL3))])
    expect(new Set(node.log.map((c) => c.tag))).toEqual(new Set([hex(100)]))
  })

  test('behavior: `multicall: false` (known absent) goes straight to the pinned eth_calls', async () => {
    const node = predeployNode({ latest: 120, contractsAt: (b) => opStack(b), multicall: false })
    await readL1FeeParams(clientOf(node), { chainId: 10, rule: 'op-stack', block: 100, multicall: false })
    expect(node.log).toHaveLength(9)
    expect(node.log.every((c) => c.tag === hex(100) && c.to !== MULTICALL3)).toBe(true)
  })

  test.each([
    ['op-stack at Jovian', 'op-stack', (b: number) => opStack(b), 9, 6],
    ['scroll', 'scroll', () => scroll(), 6, 5],
    ['mantle', 'mantle', () => mantle(), 8, 7],
  ] as const)(
    'behavior: %s: a fork once seen is not asked again (fewer getters at the next read)',
    async (_, rule, contractsAt, first, next) => {
      const node = predeployNode({ latest: 9, contractsAt })
      const client = clientOf(node)
      const previous = await readL1FeeParams(client, { chainId: 1, rule, block: 7 })
      const again = await readL1FeeParams(client, { chainId: 1, rule, block: 7, previous })
      expect(node.log.map((c) => c.inner?.length)).toEqual([first, next])
      expect(again).toEqual(previous)
    },
  )

  test("default: Multicall3's address: the canonical one, zkSync Era's own on 324 and 300 (mds1/multicall3 deployments.json)", () => {
    expect(multicall3Address(534352)).toBe('0xcA11bde05977b3631167028862bE2a173976CA11')
    expect(multicall3Address(324)).toBe('0xF9cda624FBC7e059355ce98a31693d299FACd963')
    expect(multicall3Address(300)).toBe('0xF9cda624FBC7e059355ce98a31693d299FACd963')
  })
})

describe('readL1FeeParamsAtHead and l1FeeParamsAt: the parameters of the block the window names', () => {
  test("default: one aggregate3 at the head, whose first call says the block it ran at; kept when that is the window's head", async () => {
    const node = predeployNode({ latest: 120, contractsAt: (b) => opStack(b) })
    const client = clientOf(node)
    const head = await readL1FeeParamsAtHead(client, { chainId: 10, rule: 'op-stack' })
    expect(head.blockNumber).toBe(120)
    expect(node.log).toHaveLength(1)
    expect(node.log[0]?.inner?.[0]).toBe('0x42cbb15c') // Multicall3.getBlockNumber()
    expect(await l1FeeParamsAt(client, head, 120)).toEqual(opStackParams(120))
    expect(node.log).toHaveLength(1)
  })

  test("behavior: a block landed between the calls: the parameters are read again, pinned to the window's head", async () => {
    const node = predeployNode({ latest: 121, contractsAt: (b) => opStack(b) })
    const client = clientOf(node)
    const head = await readL1FeeParamsAtHead(client, { chainId: 10, rule: 'op-stack' })
    expect(await l1FeeParamsAt(client, head, 120)).toEqual(opStackParams(120))
    expect(node.log.map((c) => c.tag)).toEqual(['latest', hex(120)])
  })

  test("behavior: Arbitrum: the block is ArbSys.arbBlockNumber's (block.number is an L1 block number there)", async () => {
    const node = predeployNode({ latest: 300_000_000, contractsAt: arbitrum, arbitrum: true })
    const client = clientOf(node)
    const head = await readL1FeeParamsAtHead(client, { chainId: 42161, rule: 'arbitrum' })
    expect(head.blockNumber).toBe(300_000_000)
    expect(node.log[0]?.inner?.[0]).toBe('0xa3b1b31d') // ArbSys.arbBlockNumber()
    expect(await l1FeeParamsAt(client, head, 300_000_000)).toEqual({ rule: 'arbitrum', perL1CalldataByte: '1600000' })
    expect(node.log).toHaveLength(1)
  })

  test("behavior: a chain without Multicall3: the getters pinned to the window's head, without asking Multicall3 again", async () => {
    const node = predeployNode({ latest: 121, contractsAt: () => scroll(), multicall: false })
    const client = clientOf(node)
    const head = await readL1FeeParamsAtHead(client, { chainId: 534352, rule: 'scroll' })
    expect(head.multicall).toBe(false)
    expect(await l1FeeParamsAt(client, head, 120)).toMatchObject({ rule: 'scroll', penaltyFactor: '10000' })
    expect(node.log.map((c) => c.tag)).toEqual(['latest', ...Array(6).fill(hex(120))])
  })
})

describe('readFeeWindow: the L1 fee parameters and Linea pricing of the head the window names', () => {
  const HEAD = 1_009
  const blocks: FakeBlock[] = Array.from({ length: 10 }, (_, i) => ({
    number: 1_000 + i,
    timestamp: 1_700_000_000 + 2 * i,
    baseFee: 1_000_000n,
    gasUsedRatio: 0.5,
    tips: [1_000n, 2_000n],
  }))
  const servers: FakeRpc[] = []
  afterEach(async () => {
    vi.restoreAllMocks()
    await Promise.all(servers.splice(0).map((s) => s.close()))
  })
  const fake = async (shape: Partial<Parameters<typeof startFakeRpc>[0]> = {}) => {
    const s = await startFakeRpc({ chainId: 10, blocks, nextBaseFee: 1_000_000n, ...shape })
    servers.push(s)
    return s
  }
  const read = (url: string, extra: Partial<Parameters<typeof readFeeWindow>[0]> = {}) =>
    readFeeWindow({
      chainId: 10,
      rpcUrls: [url],
      blockCount: 10,
      rewardPercentiles: REWARD_PERCENTILES,
      timeoutMs: 2_000,
      fallbackBlockTimeMs: 2_000,
      ...extra,
    })

  test("default: an OP-stack chain: one HTTP request, one aggregate3 whose block is the window's head", async () => {
    const s = await fake()
    const node = predeployNode({ latest: HEAD, contractsAt: (b) => opStack(b) })
    const http = routeEthCalls(s.url, node)
    const w = await read(s.url, { l1FeeRule: 'op-stack' })
    expect(w.headNumber).toBe(HEAD)
    expect(w.l1Fee).toEqual(opStackParams(HEAD))
    expect(http.requests()).toBe(1)
    expect(node.log).toHaveLength(1)
    expect(s.calls.filter((m) => m === 'eth_feeHistory')).toHaveLength(1)
  })

  test("behavior: the node's head moved on between the calls of the batch: the parameters of the window's head, pinned to its number", async () => {
    const s = await fake()
    const node = predeployNode({ latest: HEAD + 1, contractsAt: (b) => opStack(b) })
    const http = routeEthCalls(s.url, node)
    const w = await read(s.url, { l1FeeRule: 'op-stack' })
    expect(w.l1Fee).toEqual(opStackParams(HEAD))
    expect(node.log.map((c) => c.tag)).toEqual(['latest', hex(HEAD)])
    expect(http.requests()).toBe(2)
  })

  test('behavior: a chain without Multicall3: one more request, every getter pinned to the head', async () => {
    const s = await fake()
    const node = predeployNode({ latest: HEAD, contractsAt: () => mantle(), multicall: false })
    const http = routeEthCalls(s.url, node)
    const w = await read(s.url, { chainId: 10, l1FeeRule: 'mantle' })
    expect(w.l1Fee).toMatchObject({ rule: 'mantle', tokenRatio: '1000000' })
    expect(http.requests()).toBe(2)
    expect(node.log.slice(1).every((c) => c.tag === hex(HEAD))).toBe(true)
    expect(node.log).toHaveLength(1 + 8)
  })

  test('behavior: the forks seen at one read are not asked at the next', async () => {
    const s = await fake()
    const node = predeployNode({ latest: HEAD, contractsAt: (b) => opStack(b) })
    routeEthCalls(s.url, node)
    const first = await read(s.url, { l1FeeRule: 'op-stack' })
    await read(s.url, { l1FeeRule: 'op-stack', previous: first })
    // the block probe and the getters: 1 + 9, then 1 + 6
    expect(node.log.map((c) => c.inner?.length)).toEqual([10, 7])
  })

  test("default: Linea: the head's extraData v1, with no call of its own", async () => {
    const s = await fake({ chainId: 59144, extraData: `0x0100007530000f42400000a3b0${'00'.repeat(19)}` })
    const w = await read(s.url, { chainId: 59144, l1FeeRule: 'linea' })
    expect(w.lineaPricing).toEqual({ fixedCostWei: '30000000', variableCostWei: '1000000000', ethGasPriceWei: '41904000' })
    expect(w.l1Fee).toBeUndefined()
    expect(s.calls).not.toContain('eth_call')
    expect(s.requests()).toBe(1)
  })

  test('behavior: Linea without a v1 extraData, and a chain of another rule whose extraData looks like one: no pricing', async () => {
    const old = await fake({ chainId: 59144, extraData: `0x${'00'.repeat(32)}` })
    expect((await read(old.url, { chainId: 59144, l1FeeRule: 'linea' })).lineaPricing).toBeUndefined()
    // an OP-stack Jovian header's extraData starts with version 1 too (denominator, elasticity, min base fee)
    const op = await fake({ extraData: '0x01000000fa000000060000000000000000' })
    const node = predeployNode({ latest: HEAD, contractsAt: (b) => opStack(b) })
    routeEthCalls(op.url, node)
    expect((await read(op.url, { l1FeeRule: 'op-stack' })).lineaPricing).toBeUndefined()
  })
})
