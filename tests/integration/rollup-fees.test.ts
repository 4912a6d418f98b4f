// Issue 41 seen from outside: `next start` of its own, against fake nodes shaped like Linea, Scroll, Mantle and
// zkSync Era (tests/support/rollup-chains.ts) that mine a block every 2 s with fees, extraData and oracle
// parameters that move every block. Every expectation is computed here, from the fake's own parameters AT THE
// BLOCK THE ANSWER NAMES, with the formulas of the chains' sources (cited below), not the service's code.
import { parseGwei } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startService, type Service } from '@/scripts/devnet/service'
import { lineaChain, lineaPricingAt, mantleAt, mantleChain, scrollChain, scrollOracleAt, zkSyncChain } from '../support/rollup-chains'
import { isBlockNumberTag, startRollupNode, type RollupNode } from '../support/rollup-node'
import { GALILEO_MISMATCH_SIGNED, unsignedOf } from '../support/rollup-vectors'
import { basic, eventually } from './helpers'

const CRED: [string, string] = ['rollups', 'rollups-secret-of-the-rollup-test']
const LEVELS = ['low', 'medium', 'high'] as const
/** How many blocks each answer is checked at, and how long the chains get to reach them. */
const BLOCKS = 3
const DEADLINE_MS = 90_000

let service: Service
const nodes = {} as Record<'linea' | 'scroll' | 'mantle' | 'zkSync', RollupNode>

beforeAll(async () => {
  nodes.linea = await startRollupNode(lineaChain())
  nodes.scroll = await startRollupNode(scrollChain())
  nodes.mantle = await startRollupNode(mantleChain())
  nodes.zkSync = await startRollupNode(zkSyncChain())
  const env: Record<string, string> = {
    API_KEYS: CRED.join(':'),
    RATE_LIMITS: `${CRED[0]}=0`,
    USE_PUBLIC_RPCS: 'false',
    REQUEST_LOG: 'false',
    RPC_TIMEOUT_MS: '3000',
  }
  for (const node of Object.values(nodes)) env[`RPC_URL_${node.chain.chainId}`] = node.url
  service = await startService({ env })
}, 180_000)

afterAll(async () => {
  await service?.stop()
  await Promise.all(Object.values(nodes).map((n) => n?.close()))
})

type Body = Record<string, unknown> & Partial<Record<(typeof LEVELS)[number], Record<string, string>>>

async function get(chainId: number, path: string): Promise<{ block: number; body: Body }> {
  const res = await fetch(`${service.url}/networks/${chainId}/${path}`, { headers: { authorization: basic(CRED) } })
  const body = (await res.json()) as Body
  expect(res.status, JSON.stringify(body)).toBe(200)
  const block = Number(res.headers.get('x-block-number'))
  expect(block).toBeGreaterThan(0)
  // transactionCost names its block in the body too
  if ('blockNumber' in body) expect(body.blockNumber).toBe(block)
  return { block, body }
}

/**
 * Asks `path` until its answers have named BLOCKS different blocks (a chain moves on every 2 s), checking each
 * new one with `check(body, block)`. Waits on the chain, with a deadline, never on a fixed sleep.
 */
async function atBlocks(chainId: number, path: string, check: (body: Body, block: number) => void): Promise<number[]> {
  const seen: number[] = []
  await eventually(
    async () => {
      const { block, body } = await get(chainId, path)
      if (!seen.includes(block)) {
        check(body, block)
        seen.push(block)
      }
      return seen.length >= BLOCKS ? true : undefined
    },
    `chain ${chainId}: answers naming ${BLOCKS} distinct blocks`,
    DEADLINE_MS,
    250,
  )
  return seen
}

const gwei = (v: unknown) => parseGwei(String(v))
const min = (a: bigint, b: bigint) => (a < b ? a : b)
const max = (a: bigint, b: bigint) => (a > b ? a : b)
/** The next base fee of a window whose head is `block`: the fake's block + 1 (what its eth_feeHistory reports). */
const nextBaseFee = (node: RollupNode, block: number) => node.chain.block(block + 1).baseFee

/**
 * Each level's tip and max fee per gas as transactionCost states them, and its fee: gas at the effective price
 * min(next base fee + tip, max fee per gas) plus what the chain charges beside gas.
 */
function expectLevelFees(body: Body, gas: bigint, next: bigint, beside: bigint): void {
  for (const level of LEVELS) {
    const l = body[level]!
    const tip = gwei(l.maxPriorityFeePerGas)
    const maxFeePerGas = gwei(l.maxFeePerGas)
    expect(maxFeePerGas >= next + tip, `${level}: max fee per gas ${maxFeePerGas} below next base fee ${next} + tip ${tip}`).toBe(true)
    expect(gwei(l.fee)).toBe(gas * min(next + tip, maxFeePerGas) + beside)
    expect(gwei(l.maxFee) >= gas * maxFeePerGas + beside).toBe(true)
  }
}

// ---- Linea: linea-monorepo TransactionProfitabilityCalculator.profitablePriorityFeePerGas, margin 1.2
// (linea_estimateGas, mainnet profile); the compressed size bound ceil(8·(L + 20 + 3)/254)·32 (blob_maker.go
// RawCompressedSize, encode.go PackAlignSize); ETH_GAS_PRICE is the node's minimum gas price.
function lineaFloor(block: number, gas: bigint, unsignedBytes: bigint, next: bigint) {
  const p = lineaPricingAt(block)
  const [fixed, variable, ethGasPrice] = [p.fixedKwei * 1000n, p.variableKwei * 1000n, p.ethGasPriceKwei * 1000n]
  const cs = ((8n * (unsignedBytes + 23n) + 253n) / 254n) * 32n
  // trunc(1.2 × x) for an integer x is floor(12x / 10)
  const profitable = (((variable * cs) / gas + fixed) * 12n) / 10n
  return { profitable, toMinGasPrice: ethGasPrice - next }
}

describe('Linea (59144): the tip pays for the data, from the head block extraData v1', () => {
  test("default: suggestedGasFees: every level's tip is at least linea_estimateGas's for a transfer and lifts the price to ETH_GAS_PRICE", async () => {
    await atBlocks(59144, 'suggestedGasFees', (body, block) => {
      const next = nextBaseFee(nodes.linea, block)
      expect(gwei(body.estimatedBaseFee)).toBe(next)
      // a plain transfer: 51 unsigned bytes (cs 96), 21,000 gas
      const floor = lineaFloor(block, 21_000n, 51n, next)
      for (const level of LEVELS) {
        const tip = gwei(body[level]!.suggestedMaxPriorityFeePerGas)
        expect(tip >= floor.profitable, `block ${block} ${level}: tip ${tip} below the profitable ${floor.profitable}`).toBe(true)
        expect(tip >= floor.toMinGasPrice, `block ${block} ${level}: tip ${tip} below ETH_GAS_PRICE − base fee`).toBe(true)
        expect(gwei(body[level]!.suggestedMaxFeePerGas) >= next + tip).toBe(true)
      }
    })
  }, 120_000)

  test('behavior: transactionCost of 20 KB at 400,000 gas: each level assumes a tip at least the floor at that size, l1DataFee "0"', async () => {
    const gas = 400_000n
    await atBlocks(59144, `transactionCost?gas=${gas}&txBytes=20480`, (body, block) => {
      const next = nextBaseFee(nodes.linea, block)
      const floor = lineaFloor(block, gas, 20_480n, next)
      expect(body.l1DataFee).toBe('0')
      expect(body.l1DataFeeBasis).toBe('exact')
      expect(body.operatorFee).toBe('0')
      expect(body.nativeToken).toBe('ETH')
      // the floor the answer states, and every level's tip at least that
      expect(gwei(body.priorityFeeFloor), `block ${block}`).toBe(max(floor.profitable, floor.toMinGasPrice))
      for (const level of LEVELS) {
        const tip = gwei(body[level]!.maxPriorityFeePerGas)
        expect(tip >= max(floor.profitable, floor.toMinGasPrice), `block ${block} ${level}: tip ${tip} below the floor`).toBe(true)
      }
      expectLevelFees(body, gas, next, 0n)
    })
  }, 120_000)
})

// ---- Scroll: scroll-revm l1block.rs calculate_tx_l1_cost_galileo; with txBytes the bound at cs = txBytes + 68.
function scrollGalileo(block: number, cs: bigint): bigint {
  const v = scrollOracleAt(block)
  const base = (v.commitScalar * v.l1BaseFee + v.blobScalar * v.l1BlobBaseFee) * cs
  const fee = (base + (base * cs) / v.penaltyFactor) / 1_000_000_000n
  return min(fee, 2n ** 64n - 1n)
}

describe("Scroll (534352): Galileo's fee, from L1GasPriceOracle at the answer's block", () => {
  test('default: transactionCost with txBytes: l1DataFee is the Galileo fee at cs = txBytes + 68, to the wei', async () => {
    const gas = 150_000n
    await atBlocks(534352, `transactionCost?gas=${gas}&txBytes=300`, (body, block) => {
      const l1 = scrollGalileo(block, 300n + 68n)
      expect(gwei(body.l1DataFee), `block ${block}`).toBe(l1)
      // no signature can make the transaction longer than that: the bound
      expect(body.l1DataFeeBasis).toBe('upperBound')
      expect(body.operatorFee).toBe('0')
      expect(body.nativeToken).toBe('ETH')
      expectLevelFees(body, gas, nextBaseFee(nodes.scroll, block), l1)
    })
  }, 120_000)
})

describe('Scroll (534352): with tx, exact under next start', () => {
  test("behavior: transactionCost with tx: the Galileo fee at the transaction's compressed signed size (reth's galileo-mismatch: 301 bytes), to the wei", async () => {
    const gas = 500_000n
    await atBlocks(534352, `transactionCost?gas=${gas}&tx=${unsignedOf(GALILEO_MISMATCH_SIGNED)}`, (body, block) => {
      // the production build loads the zstd addon (serverExternalPackages) and compresses as Scroll's node does
      expect(body.l1DataFeeBasis, `block ${block}`).toBe('exact')
      expect(gwei(body.l1DataFee), `block ${block}`).toBe(scrollGalileo(block, 301n))
    })
  }, 120_000)
})

// ---- Mantle: mantle op-geth rollup_cost.go NewL1CostFuncArsia (the Fjord fee, floored, × tokenRatio) and
// newOperatorCostFunc; GasPriceOracle.sol getL1FeeUpperBound (s = size + 68; s + s/255 + 16), raised to FastLZ's
// worst case s + ceil(s/32) where larger (a literal run of up to 32 bytes behind one control byte), and _fjordL1Cost.
function mantleFees(block: number, gas: bigint, unsignedBytes: bigint) {
  const v = mantleAt(block)
  const size = unsignedBytes + 68n
  const fastLz = max(size + size / 255n + 16n, size + (size + 31n) / 32n)
  const estimated = max(100_000_000n, -42_585_600n + 836_500n * fastLz)
  const fjord = (estimated * (BigInt(v.baseFeeScalar) * 16n * v.l1BaseFee + BigInt(v.blobBaseFeeScalar) * v.blobBaseFee)) / 10n ** 12n
  return { l1: fjord * v.tokenRatio, operator: gas * BigInt(v.operatorFeeScalar) * 100n + v.operatorFeeConstant }
}

describe('Mantle (5000): Arsia in MNT, from GasPriceOracle and L1Block at the answer block', () => {
  test.each([
    ['a transfer (the Fjord minimum size)', 21_000n, 51n],
    ['1,000 bytes at 400,000 gas', 400_000n, 1_000n],
  ])(
    'default: transactionCost of %s: l1DataFee = the Fjord upper bound × tokenRatio, operatorFee = gas × scalar × 100 + constant',
    async (_, gas, bytes) => {
      await atBlocks(5000, `transactionCost?gas=${gas}&txBytes=${bytes}`, (body, block) => {
        const f = mantleFees(block, gas, bytes)
        expect(body.nativeToken).toBe('MNT')
        expect(gwei(body.l1DataFee), `block ${block}`).toBe(f.l1)
        expect(body.l1DataFeeBasis).toBe('upperBound')
        expect(gwei(body.operatorFee), `block ${block}`).toBe(f.operator)
        expectLevelFees(body, gas, nextBaseFee(nodes.mantle, block), f.l1 + f.operator)
      })
    },
    120_000,
  )
})

// ---- zkSync Era: the bootloader charges the base fee alone (era-contracts bootloader.yul); pubdata is in gas.
describe('zkSync Era (324): pubdata in gas, no tip', () => {
  test('default: suggestedGasFees: every tip is "0", whatever the blocks carry', async () => {
    await atBlocks(324, 'suggestedGasFees', (body, block) => {
      expect(gwei(body.estimatedBaseFee)).toBe(nextBaseFee(nodes.zkSync, block))
      for (const level of LEVELS) expect(body[level]!.suggestedMaxPriorityFeePerGas).toBe('0')
    })
  }, 120_000)

  test('default: transactionCost: l1DataFee "0", tips "0", and fee = gas × the next base fee', async () => {
    const gas = 500_000n
    await atBlocks(324, `transactionCost?gas=${gas}`, (body, block) => {
      const next = nextBaseFee(nodes.zkSync, block)
      expect(body.l1DataFee).toBe('0')
      expect(body.l1DataFeeBasis).toBe('exact')
      expect(body.operatorFee).toBe('0')
      for (const level of LEVELS) {
        expect(body[level]!.maxPriorityFeePerGas).toBe('0')
        expect(gwei(body[level]!.fee)).toBe(gas * next)
      }
    })
  }, 120_000)
})

describe('one block per answer', () => {
  test("behavior: every eth_call the nodes received carried a block number, never `latest`; the getters travel with the feed's reads only", async () => {
    // (the chains read at least once, should this test run alone)
    for (const node of [nodes.scroll, nodes.mantle]) await get(node.chain.chainId, 'transactionCost?gas=21000')
    for (const node of [nodes.scroll, nodes.mantle]) {
      const reads = node.calls.filter((m) => m === 'eth_feeHistory').length
      expect(reads).toBeGreaterThan(0)
      expect(node.ethCalls.length).toBeGreaterThan(0)
      // one aggregate3 a read, and one more when the predicted head was not the head: none per request
      expect(node.ethCalls.length).toBeLessThanOrEqual(2 * reads)
      const notMined = node.ethCalls.filter((c) => c.error !== undefined).length
      console.log(
        `chain ${node.chain.chainId}: ${reads} reads, ${node.ethCalls.length} aggregate3 eth_calls (${notMined} at a predicted block not mined yet)`,
      )
    }
    const all = Object.values(nodes).flatMap((n) => n.ethCalls.map((c) => ({ chainId: n.chain.chainId, tag: c.tag })))
    expect(all.filter((c) => !isBlockNumberTag(c.tag))).toEqual([])
  })
})
