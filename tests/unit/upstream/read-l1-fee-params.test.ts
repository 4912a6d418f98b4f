// The L1 fee parameters, read at one block: the predeploys' getters of each rule (OP-stack, Arbitrum,
// Scroll, Mantle) through one Multicall3 aggregate3, or pinned eth_calls where the chain has no Multicall3;
// and at the window's head: probed at the head predicted, else pinned to the head. Predeploys in memory
// (predeploy-node.ts); readFeeWindow's side is l1-fee-at-head.test.ts.
import { createClient, custom, type Client } from 'viem'
import { describe, expect, test } from 'vitest'
import type { L1FeeParams } from '@/lib/core/types'
import { multicall3Address } from '@/lib/upstream/multicall3'
import { l1FeeParamsAt, readL1FeeParams, readL1FeeParamsProbed } from '@/lib/upstream/read-l1-fee-params'
import { ethCallHandler, MULTICALL3, predeployNode, type Contracts } from './predeploy-node'
import { MANTLE_GETH, SCROLL_REVM } from '../../support/rollup-vectors'

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
    ['scroll', 'scroll', () => scroll(), { ...SCROLL_REVM }],
    ['mantle', 'mantle', () => mantle(), { ...MANTLE_GETH }],
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

describe('readL1FeeParamsProbed and l1FeeParamsAt: the parameters of the block the window names', () => {
  test("default: one aggregate3 pinned to the predicted head, whose first call says the block it ran at; kept when that is the window's head", async () => {
    const node = predeployNode({ latest: 120, contractsAt: (b) => opStack(b) })
    const client = clientOf(node)
    const probed = await readL1FeeParamsProbed(client, { chainId: 10, rule: 'op-stack', block: 120 })
    expect(probed.blockNumber).toBe(120)
    expect(node.log).toHaveLength(1)
    expect(node.log[0]).toMatchObject({ to: MULTICALL3, tag: hex(120) })
    expect(node.log[0]?.inner?.[0]).toBe('0x42cbb15c') // Multicall3.getBlockNumber()
    expect(await l1FeeParamsAt(client, probed, 120)).toEqual(opStackParams(120))
    expect(node.log).toHaveLength(1)
  })

  test("behavior: the predicted block is not mined yet (the node errors): nothing kept, the parameters read pinned to the window's head", async () => {
    const node = predeployNode({ latest: 119, contractsAt: (b) => opStack(b) })
    const client = clientOf(node)
    const probed = await readL1FeeParamsProbed(client, { chainId: 10, rule: 'op-stack', block: 120 })
    expect(probed).toEqual({ read: { chainId: 10, rule: 'op-stack' } })
    expect(await l1FeeParamsAt(client, probed, 119)).toEqual(opStackParams(119))
    expect(node.log.map((c) => c.tag)).toEqual([hex(120), hex(119)])
  })

  test("behavior: the window's head is past the predicted block: the parameters are read again, pinned to the window's head", async () => {
    const node = predeployNode({ latest: 122, contractsAt: (b) => opStack(b) })
    const client = clientOf(node)
    const probed = await readL1FeeParamsProbed(client, { chainId: 10, rule: 'op-stack', block: 120 })
    expect(probed.blockNumber).toBe(120)
    expect(await l1FeeParamsAt(client, probed, 122)).toEqual(opStackParams(122))
    expect(node.log.map((c) => c.tag)).toEqual([hex(120), hex(122)])
  })

  test("behavior: Arbitrum: the block is ArbSys.arbBlockNumber's (block.number is an L1 block number there)", async () => {
    const node = predeployNode({ latest: 300_000_000, contractsAt: arbitrum, arbitrum: true })
    const client = clientOf(node)
    const probed = await readL1FeeParamsProbed(client, { chainId: 42161, rule: 'arbitrum', block: 300_000_000 })
    expect(probed.blockNumber).toBe(300_000_000)
    expect(node.log[0]?.inner?.[0]).toBe('0xa3b1b31d') // ArbSys.arbBlockNumber()
    expect(await l1FeeParamsAt(client, probed, 300_000_000)).toEqual({ rule: 'arbitrum', perL1CalldataByte: '1600000' })
    expect(node.log).toHaveLength(1)
  })

  test("behavior: a chain without Multicall3: the getters pinned to the window's head, without asking Multicall3 again", async () => {
    const node = predeployNode({ latest: 121, contractsAt: () => scroll(), multicall: false })
    const client = clientOf(node)
    const probed = await readL1FeeParamsProbed(client, { chainId: 534352, rule: 'scroll', block: 121 })
    expect(probed.multicall).toBe(false)
    expect(await l1FeeParamsAt(client, probed, 120)).toMatchObject({ rule: 'scroll', penaltyFactor: '10000' })
    expect(node.log.map((c) => c.tag)).toEqual([hex(121), ...Array(6).fill(hex(120))])
  })
})
