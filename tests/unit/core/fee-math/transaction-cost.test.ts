import { describe, expect, test } from 'vitest'
import { chainFeePolicy } from '@/lib/core/chain-rules/chain-policy'
import { InvalidQueryError } from '@/lib/core/contract/errors'
import { levelSuggestions } from '@/lib/core/fee-math/replacement'
import { DEFAULT_TX_BYTES, l1FeeCap, transactionCost } from '@/lib/core/fee-math/transaction-cost'
import type { FeeWindow, L1FeeParams } from '@/lib/core/types'
import { makeWindow } from '../../../support/windows'

// GasPriceOracle.t.sol's Fjord parameters: getL1FeeUpperBound(161) = 111,214 wei, getL1FeeUpperBound(5) = 68,500 wei
const GPO: L1FeeParams = {
  rule: 'op-stack',
  l1BaseFee: '2000000',
  blobBaseFee: '3000000',
  baseFeeScalar: 20,
  blobBaseFeeScalar: 15,
  isthmus: true,
  jovian: true,
  operatorFeeScalar: 3,
  operatorFeeConstant: '1000',
}
const JOVIAN_BASE = '0x' + '01' + '000000fa' + '00000006' + '00000000004c4b40'

/** Base at its 0.005 gwei floor: 500 blocks of 2 s, 10% full, Jovian extraData and the predeploys' values. */
function baseAtFloor(l1Fee?: L1FeeParams): FeeWindow {
  const fees = Array(500).fill(5_000_000n)
  return {
    ...makeWindow({ baseFees: fees, next: 5_000_000n, ratios: fees.map(() => 0.1), intervalMs: 2_000 }),
    chainId: 8453,
    headExtraData: JOVIAN_BASE,
    headGasLimit: '150000000',
    ...(l1Fee ? { l1Fee } : {}),
  }
}

describe('transactionCost', () => {
  test("default: on an OP-stack chain at its floor, fee and maxFee add the L1 data fee (the contract's upper bound) and the operator fee", () => {
    const window = baseAtFloor(GPO)
    const policy = chainFeePolicy(8453)
    const levels = levelSuggestions(window, policy)
    const body = transactionCost(window, levels, { gas: 21_000n, txBytes: 161 }, {})
    expect(body.txBytes).toBe(161)
    expect(body.l1DataFee).toBe(111_214n)
    // Jovian: 21,000 × 3 × 100 + 1,000
    expect(body.operatorFee).toBe(6_301_000n)
    for (const u of ['low', 'medium', 'high'] as const) {
      const tip = levels[u].fees!.maxPriorityFeePerGas
      expect(body.levels[u].fee).toBe(21_000n * (5_000_000n + tip) + 111_214n + 6_301_000n)
      const maxFee = body.levels[u].maxFee
      // at least one full block's rise (2%: denominator 250, elasticity 6) over the floor for the gas
      // part, and the L1 fee grown by one L1 block's 12.5% at least
      expect(maxFee >= 21_000n * ((5_000_000n * 102n) / 100n + tip) + (111_214n * 1125n) / 1000n + 6_301_000n).toBe(true)
      expect(maxFee).toBe(21_000n * levels[u].fees!.maxFeePerGas + l1FeeCap(111_214n, u, 2_000) + 6_301_000n)
    }
  })

  test('behavior: with tx, the L1 data fee is getL1Fee of that transaction; txBytes defaults to a plain transfer', () => {
    const window = baseAtFloor(GPO)
    const levels = levelSuggestions(window, chainFeePolicy(8453))
    expect(transactionCost(window, levels, { gas: 21_000n, tx: '0x0000010203' }, {}).l1DataFee).toBe(68_500n)
    const plain = transactionCost(window, levels, { gas: 21_000n }, {})
    expect(plain.txBytes).toBe(DEFAULT_TX_BYTES)
  })

  test('behavior: the L1 fee cap grows by 12.5% for every L1 block the level can see: low holds more than high', () => {
    expect(l1FeeCap(1_000_000n, 'high', 2_000) >= 1_125_000n).toBe(true)
    expect(l1FeeCap(1_000_000n, 'low', 2_000) >= l1FeeCap(1_000_000n, 'high', 2_000)).toBe(true)
    // 12-s blocks: every block of the horizon may carry a new L1 fee
    expect(l1FeeCap(1_000_000n, 'high', 12_000) > l1FeeCap(1_000_000n, 'high', 2_000)).toBe(true)
  })

  test.each([
    ['Ethereum', 1, undefined, 0n],
    ['Polygon PoS', 137, undefined, 0n],
    ['Linea', 59144, undefined, 0n],
    ['an L2 whose L1 fee is not computed', 534352, undefined, null],
    ['an OP-stack chain before Fjord', 10, { rule: 'unavailable', reason: 'pre-Fjord' } as L1FeeParams, null],
    ['Arbitrum One', 42161, { rule: 'arbitrum', perL1CalldataByte: '2000000' } as L1FeeParams, 238_000_000n],
  ])('behavior: %s (chain %i): the L1 data fee it charges, or null where unknown', (_, chainId, l1Fee, expected) => {
    const window = { ...baseAtFloor(l1Fee), chainId, headExtraData: undefined }
    const body = transactionCost(
      window,
      levelSuggestions(window, chainFeePolicy(chainId)),
      { gas: 21_000n },
      { unknownL1Fee: chainId === 534352 },
    )
    expect(body.l1DataFee).toBe(expected)
    // a fee it cannot compute is left out of the totals, never guessed
    if (expected === null) expect(body.operatorFee).toBeNull()
  })

  test.each([
    ['Ethereum since Osaka (EIP-7825)', 1, 1n << 24n],
    ['Arbitrum One (ArbOS 50+)', 42161, 32_000_000n],
    ["another chain: the head's gas limit", 8453, 150_000_000n],
  ])('error: gas above the per-transaction cap of %s is refused, naming gas', (_, chainId, cap) => {
    const window = { ...baseAtFloor(), chainId, headGasLimit: '150000000', headExtraData: undefined }
    const policy = chainFeePolicy(chainId)
    const levels = levelSuggestions(window, policy)
    const chain = { maxTransactionGas: policy.maxTransactionGas }
    expect(transactionCost(window, levels, { gas: cap }, chain).gas).toBe(cap)
    expect(() => transactionCost(window, levels, { gas: cap + 1n }, chain)).toThrow(InvalidQueryError)
    expect(() => transactionCost(window, levels, { gas: cap + 1n }, chain)).toThrow(/'gas'/)
  })
})
