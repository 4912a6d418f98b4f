// readFeeWindow's L1 fee parameters and Linea pricing: those of the block the window names, every eth_call
// pinned to a block number (never `latest`). Against a fake node of a live chain (tests/support/rollup-node.ts)
// mined by hand, whose predeploys' values move every block; Date is faked, so the head the read predicts
// from the last one is the test's choice, not the machine's speed.
import { afterEach, describe, expect, test, vi } from 'vitest'
import { REWARD_PERCENTILES } from '@/lib/core/fee-math/estimator'
import type { FeeWindow, L1FeeParams } from '@/lib/core/types'
import { readFeeWindow } from '@/lib/upstream/read-fee-window'
import { predictedHead } from '@/lib/upstream/read-from-url'
import { AGGREGATE3, GET_BLOCK_NUMBER } from '../../support/predeploy-calls'
import {
  GAS_PRICE_ORACLE,
  lineaChain,
  lineaPricingAt,
  mantleAt,
  mantleChain,
  scrollChain,
  scrollOracleAt,
} from '../../support/rollup-chains'
import { isBlockNumberTag, startRollupNode, type RollupChain, type RollupNode } from '../../support/rollup-node'

const hex = (n: number) => `0x${n.toString(16)}`
const INTERVAL = 2_000

const nodes: RollupNode[] = []
afterEach(async () => {
  vi.useRealTimers()
  await Promise.all(nodes.splice(0).map((n) => n.close()))
})

/** A node mined by hand; the clock faked (Date only: the network runs on real timers). */
async function start(chain: RollupChain): Promise<RollupNode> {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(Date.UTC(2026, 10, 27, 12, 0, 0))
  const node = await startRollupNode(chain, { timed: false })
  nodes.push(node)
  return node
}

const ruleOf = { 534352: 'scroll', 5000: 'mantle', 59144: 'linea', 10: 'op-stack' } as const
const read = (node: RollupNode, previous?: FeeWindow) =>
  readFeeWindow({
    chainId: node.chain.chainId,
    rpcUrls: [node.url],
    blockCount: 10,
    rewardPercentiles: REWARD_PERCENTILES,
    timeoutMs: 5_000,
    fallbackBlockTimeMs: INTERVAL,
    l1FeeRule: ruleOf[node.chain.chainId as keyof typeof ruleOf],
    previous,
  })

/** What the node saw of one read: its HTTP requests (rounds), eth_feeHistory calls and eth_calls. */
async function observed(node: RollupNode, run: () => Promise<FeeWindow>) {
  const before = { requests: node.requests(), calls: node.calls.length, ethCalls: node.ethCalls.length }
  const window = await run()
  return {
    window,
    rounds: node.requests() - before.requests,
    feeHistories: node.calls.slice(before.calls).filter((m) => m === 'eth_feeHistory').length,
    ethCalls: node.ethCalls.slice(before.ethCalls),
  }
}

const scrollParams = (n: number): L1FeeParams => {
  const v = scrollOracleAt(n)
  return {
    rule: 'scroll',
    l1BaseFee: String(v.l1BaseFee),
    l1BlobBaseFee: String(v.l1BlobBaseFee),
    commitScalar: String(v.commitScalar),
    blobScalar: String(v.blobScalar),
    penaltyFactor: String(v.penaltyFactor),
  }
}
const mantleParams = (n: number): L1FeeParams => {
  const v = mantleAt(n)
  return {
    rule: 'mantle',
    l1BaseFee: String(v.l1BaseFee),
    blobBaseFee: String(v.blobBaseFee),
    baseFeeScalar: v.baseFeeScalar,
    blobBaseFeeScalar: v.blobBaseFeeScalar,
    tokenRatio: String(v.tokenRatio),
    operatorFeeScalar: v.operatorFeeScalar,
    operatorFeeConstant: String(v.operatorFeeConstant),
  }
}

describe('predictedHead', () => {
  const previous = { headNumber: 100, fetchedAt: 1_000_000, blockIntervalMs: 2_000 }
  test.each([
    ['one interval later', 1_002_000, 101],
    ['two and a half intervals later (rounded)', 1_005_000, 103],
    ['two and a fifth intervals later (rounded)', 1_004_400, 102],
    ['no time later: still the next block', 1_000_000, 101],
    ['a clock that went back: the next block', 999_000, 101],
  ])('behavior: %s', (_, now, expected) => {
    expect(predictedHead(previous, now)).toBe(expected)
  })

  test('behavior: an interval of 0 ms (a window of one block) predicts the next block', () => {
    expect(predictedHead({ ...previous, blockIntervalMs: 0 }, 1_010_000)).toBe(101)
  })
})

describe('readFeeWindow: the L1 fee parameters of the block the window names, never at `latest`', () => {
  test("default: a cold read: no eth_call in the window's batch, then one aggregate3 pinned to the head eth_feeHistory ends at", async () => {
    const node = await start(scrollChain())
    const head = node.head()
    const r = await observed(node, () => read(node))
    expect(r.window.headNumber).toBe(head)
    expect(r.window.l1Fee).toEqual(scrollParams(head))
    expect(r.rounds).toBe(2)
    expect(r.feeHistories).toBe(1)
    expect(r.ethCalls).toEqual([expect.objectContaining({ selector: AGGREGATE3, tag: hex(head) })])
  })

  test.each([
    ['the next block, one interval later', 1, 1 * INTERVAL],
    ['three blocks, three and a third intervals later', 3, 3 * INTERVAL + INTERVAL / 3],
  ])(
    "behavior: the head predicted from the last read is the head (%s): one round, the parameters read with the window's batch",
    async (_, blocks, elapsed) => {
      const node = await start(scrollChain())
      const first = await read(node)
      node.mine(blocks)
      vi.setSystemTime(first.fetchedAt + elapsed)
      const r = await observed(node, () => read(node, first))
      const head = first.headNumber + blocks
      expect(r.window.headNumber).toBe(head)
      expect(r.window.l1Fee).toEqual(scrollParams(head))
      expect(r.rounds).toBe(1)
      expect(r.feeHistories).toBe(1)
      expect(r.ethCalls).toHaveLength(1)
      expect(r.ethCalls[0]).toMatchObject({ selector: AGGREGATE3, tag: hex(head) })
      // its first inner call says the block it ran at
      expect(r.ethCalls[0]?.inner?.[0]).toBe(GET_BLOCK_NUMBER)
    },
  )

  test('behavior: the predicted block is not mined yet (the node errors): read again, pinned to the head, in the next batch', async () => {
    const node = await start(scrollChain())
    const first = await read(node)
    vi.setSystemTime(first.fetchedAt + INTERVAL)
    const r = await observed(node, () => read(node, first))
    expect(r.window.headNumber).toBe(first.headNumber)
    expect(r.window.l1Fee).toEqual(scrollParams(first.headNumber))
    expect(r.ethCalls.map((c) => c.tag)).toEqual([hex(first.headNumber + 1), hex(first.headNumber)])
    expect(r.ethCalls[0]?.error).toMatch(/header not found/)
    expect(r.rounds).toBe(2)
    expect(r.feeHistories).toBe(1)
  })

  test('behavior: the head is past the predicted block: the probe names another block; read again, pinned to the head', async () => {
    const node = await start(scrollChain())
    const first = await read(node)
    node.mine(3)
    vi.setSystemTime(first.fetchedAt + INTERVAL)
    const r = await observed(node, () => read(node, first))
    const head = first.headNumber + 3
    expect(r.window.l1Fee).toEqual(scrollParams(head))
    expect(r.ethCalls.map((c) => c.tag)).toEqual([hex(first.headNumber + 1), hex(head)])
    expect(r.rounds).toBe(2)
  })

  test('behavior: Mantle over blocks: every read has the parameters of its own head, and the fork once seen is not asked again', async () => {
    const node = await start(mantleChain())
    let previous = await read(node)
    expect(previous.l1Fee).toEqual(mantleParams(previous.headNumber))
    for (const blocks of [1, 2, 1]) {
      node.mine(blocks)
      vi.setSystemTime(previous.fetchedAt + blocks * INTERVAL)
      const r = await observed(node, () => read(node, previous))
      expect(r.window.l1Fee).toEqual(mantleParams(previous.headNumber + blocks))
      expect(r.rounds).toBe(1)
      // getBlockNumber and the seven getters (isArsia known)
      expect(r.ethCalls.map((c) => c.inner?.length)).toEqual([1 + 7])
      previous = r.window
    }
  })

  test('behavior: a chain without Multicall3: the getters, one eth_call each, pinned to the head', async () => {
    const node = await start({ ...scrollChain(), multicall3: false })
    const cold = await observed(node, () => read(node))
    expect(cold.window.l1Fee).toEqual(scrollParams(cold.window.headNumber))
    // the aggregate3 at the head finds no code, then six getters at that head
    expect(cold.ethCalls.map((c) => c.tag)).toEqual(Array(1 + 6).fill(hex(cold.window.headNumber)))
    node.mine()
    vi.setSystemTime(cold.window.fetchedAt + INTERVAL)
    const warm = await observed(node, () => read(node, cold.window))
    expect(warm.window.l1Fee).toEqual(scrollParams(warm.window.headNumber))
    expect(warm.ethCalls.map((c) => c.tag)).toEqual(Array(1 + 5).fill(hex(warm.window.headNumber)))
    expect(warm.rounds).toBe(2)
  })

  test('default: Linea: the extraData v1 of the head the window names, with no call of its own', async () => {
    const node = await start(lineaChain())
    const first = await read(node)
    node.mine()
    vi.setSystemTime(first.fetchedAt + INTERVAL)
    for (const w of [first, await read(node, first)]) {
      const p = lineaPricingAt(w.headNumber)
      expect(w.lineaPricing).toEqual({
        fixedCostWei: String(p.fixedKwei * 1000n),
        variableCostWei: String(p.variableKwei * 1000n),
        ethGasPriceWei: String(p.ethGasPriceKwei * 1000n),
      })
      expect(w.l1Fee).toBeUndefined()
    }
    expect(node.ethCalls).toEqual([])
  })

  test('behavior: Linea without a v1 extraData, and a chain of another rule whose extraData looks like one: no pricing', async () => {
    const old = await start({ ...lineaChain(), block: (n) => ({ ...lineaChain().block(n), extraData: `0x${'00'.repeat(32)}` }) })
    expect((await read(old)).lineaPricing).toBeUndefined()
    // an OP-stack Jovian header's extraData starts with version 1 too (denominator, elasticity, min base fee)
    const op = await start({
      chainId: 10,
      startHead: 140_000_000,
      intervalMs: INTERVAL,
      block: () => ({ baseFee: 1_000_000n, gasUsedRatio: 0.5, tips: [1_000n], extraData: '0x01000000fa000000060000000000000000' }),
      contractsAt: () => ({
        [GAS_PRICE_ORACLE]: { l1BaseFee: 1n, blobBaseFee: 1n, baseFeeScalar: 1, blobBaseFeeScalar: 1, isFjord: true },
      }),
    })
    const w = await read(op)
    expect(w.lineaPricing).toBeUndefined()
    expect(w.l1Fee).toMatchObject({ rule: 'op-stack', isthmus: false })
  })

  test('behavior: never `latest`: over reads that hit, miss ahead and miss behind, every eth_call carries a block number', async () => {
    const node = await start(mantleChain())
    let previous = await read(node)
    for (const [blocks, intervals] of [
      [1, 1],
      [0, 1],
      [4, 1],
      [2, 2],
    ] as const) {
      node.mine(blocks)
      vi.setSystemTime(previous.fetchedAt + intervals * INTERVAL)
      previous = await read(node, previous)
      expect(previous.l1Fee).toEqual(mantleParams(previous.headNumber))
    }
    expect(node.ethCalls.length).toBeGreaterThan(5)
    expect(node.ethCalls.filter((c) => !isBlockNumberTag(c.tag))).toEqual([])
  })
})
