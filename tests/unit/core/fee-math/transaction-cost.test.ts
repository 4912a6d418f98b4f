import { serializeTransaction } from 'viem'
import { describe, expect, test } from 'vitest'
import { chainFeePolicy } from '@/lib/core/chain-rules/chain-policy'
import { InvalidQueryError } from '@/lib/core/contract/errors'
import { levelSuggestions } from '@/lib/core/fee-math/replacement'
import { DEFAULT_TX_BYTES, l1FeeCap, transactionCost } from '@/lib/core/fee-math/transaction-cost'
import { windowPolicy } from '@/lib/core/fee-math/window-policy'
import type { FeeWindow, L1FeeParams, LineaPricing } from '@/lib/core/types'
import { flatRewards, makeWindow } from '../../../support/windows'
import { MANTLE_GETH, SCROLL_REVM } from '../../../support/rollup-vectors'

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
/** A plain transfer, unsigned: signed, its FastLZ size is under the Fjord minimum (100 bytes after the regression). */
const TRANSFER = serializeTransaction({
  chainId: 8453,
  nonce: 1,
  gas: 21_000n,
  to: '0x4200000000000000000000000000000000000006',
  value: 1n,
  maxFeePerGas: 10_000_000n,
  maxPriorityFeePerGas: 1n,
})

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

  test('behavior: with tx, the L1 data fee is the Fjord fee of that transaction signed (a transfer: the minimum); txBytes defaults to a plain transfer', () => {
    const window = baseAtFloor(GPO)
    const levels = levelSuggestions(window, chainFeePolicy(8453))
    expect(transactionCost(window, levels, { gas: 21_000n, tx: TRANSFER }, {}).l1DataFee).toBe(68_500n)
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
    ['an L2 whose L1 fee is not computed (Metis)', 1088, undefined, null],
    ['an OP-stack chain before Fjord', 10, { rule: 'unavailable', reason: 'pre-Fjord' } as L1FeeParams, null],
    ['Arbitrum One', 42161, { rule: 'arbitrum', perL1CalldataByte: '2000000' } as L1FeeParams, 238_000_000n],
  ])('behavior: %s (chain %i): the L1 data fee it charges, or null where unknown', (_, chainId, l1Fee, expected) => {
    const window = { ...baseAtFloor(l1Fee), chainId, headExtraData: undefined }
    const body = transactionCost(
      window,
      levelSuggestions(window, chainFeePolicy(chainId)),
      { gas: 21_000n },
      { unknownL1Fee: chainId === 1088 },
    )
    expect(body.l1DataFee).toBe(expected)
    // a fee it cannot compute is left out of the totals, never guessed
    if (expected === null) expect(body.operatorFee).toBeNull()
  })

  test.each([
    ['Ethereum since Osaka (EIP-7825)', 1, 1n << 24n],
    ['Arbitrum One (ArbOS 50+)', 42161, 32_000_000n],
    ['Base since Azul (EIP-7825)', 8453, 1n << 24n],
    ["another chain: the head's gas limit", 10, 150_000_000n],
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

describe('transactionCost: the tip and max fee each level assumes', () => {
  test('default: each level shows the suggestion it is computed with; on Base l1DataFee is the bound with txBytes, exact with tx', () => {
    const window = baseAtFloor(GPO)
    const levels = levelSuggestions(window, chainFeePolicy(8453))
    const bound = transactionCost(window, levels, { gas: 21_000n, txBytes: 161 }, { nativeToken: 'ETH' })
    expect(bound).toMatchObject({ nativeToken: 'ETH', l1DataFeeBasis: 'upperBound', priorityFeeFloor: null })
    for (const u of ['low', 'medium', 'high'] as const) {
      expect(bound.levels[u].maxPriorityFeePerGas).toBe(levels[u].fees!.maxPriorityFeePerGas)
      expect(bound.levels[u].maxFeePerGas).toBe(levels[u].fees!.maxFeePerGas)
    }
    expect(transactionCost(window, levels, { gas: 21_000n, tx: TRANSFER }, {}).l1DataFeeBasis).toBe('exact')
  })

  test.each([
    ['Ethereum (no fee beside gas)', 1, undefined, 'exact'],
    ['Arbitrum, also with tx (Brotli: the signed size bounds it)', 42161, { rule: 'arbitrum', perL1CalldataByte: '2000000' }, 'upperBound'],
    ['an OP-stack chain before Fjord', 10, { rule: 'unavailable', reason: 'pre-Fjord' }, null],
  ] as const)('behavior: %s: l1DataFeeBasis %s', (_, chainId, l1Fee, basis) => {
    const window = { ...baseAtFloor(l1Fee as L1FeeParams | undefined), chainId, headExtraData: undefined }
    const levels = levelSuggestions(window, chainFeePolicy(chainId))
    expect(transactionCost(window, levels, { gas: 21_000n, tx: '0x0000010203' }, {}).l1DataFeeBasis).toBe(basis)
  })
})

// Linea mainnet block 28,279,180 (2026-01; ../shared/research/rollup-fee-rules.md): fixed 30,000,000 wei,
// variable 1,000,000,000 wei per compressed byte, ETH_GAS_PRICE 41,904,000 wei; base fee 7 wei
const LINEA_2026_01: LineaPricing = { fixedCostWei: '30000000', variableCostWei: '1000000000', ethGasPriceWei: '41904000' }

/** 500 Linea blocks of 2 s at base fee 7 wei whose tips run 20–35 Mwei, with the head's pricing when given. */
function lineaWindow(pricing?: LineaPricing): FeeWindow {
  const rewards = Array.from({ length: 500 }, (_, i) => flatRewards((20n + BigInt(i % 16)) * 1_000_000n))
  const window = makeWindow({ baseFees: Array(500).fill(7n), next: 7n, rewards, intervalMs: 2_000 })
  return { ...window, chainId: 59144, headGasLimit: '2000000000', ...(pricing ? { lineaPricing: pricing } : {}) }
}

/** A 20 KB-calldata EIP-1559 transaction on Linea, unsigned, as viem serializes it. */
const LINEA_20KB_TX = serializeTransaction({
  chainId: 59144,
  nonce: 1_000,
  to: '0x4200000000000000000000000000000000000006',
  data: `0x${'5a'.repeat(20 * 1024)}`,
  gas: 400_000n,
  maxFeePerGas: 100_000_000n,
  maxPriorityFeePerGas: 98_208_000n,
})

describe('transactionCost on Linea: the data cost rides in the tip', () => {
  const chain = { l1FeeRule: 'linea' as const, nativeToken: 'ETH' }
  const suggestionsOf = (window: FeeWindow) => levelSuggestions(window, windowPolicy(chainFeePolicy(59144), window))

  test('default: a transfer tips what the levels already tip (their floor is the transfer\u2019s): 41,903,993 wei; l1DataFee 0', () => {
    const window = lineaWindow(LINEA_2026_01)
    const levels = suggestionsOf(window)
    const cost = transactionCost(window, levels, { gas: 21_000n }, chain)
    expect(cost).toMatchObject({ l1DataFee: 0n, l1DataFeeBasis: 'exact', operatorFee: 0n, priorityFeeFloor: 41_903_993n })
    for (const u of ['low', 'medium', 'high'] as const) {
      const tip = levels[u].fees!.maxPriorityFeePerGas
      expect(tip >= 41_903_993n).toBe(true)
      expect(cost.levels[u].maxPriorityFeePerGas).toBe(tip)
      expect(cost.levels[u].fee).toBe(21_000n * (7n + tip))
    }
  })

  test.each([
    // the research doc's data-heavy case: cs = lineaCompressedSizeBound(20,534) = 20,736, margin 1.2
    ['txBytes=20534', { gas: 400_000n, txBytes: 20_534 }, 98_208_000n],
    // the check: 20 KB of calldata at 400,000 gas, its size taken from tx
    ['tx= 20 KB of calldata', { gas: 400_000n, tx: LINEA_20KB_TX }, 98_208_000n],
  ])('behavior: %s: every level tips the floor at that gas and size; fee and maxFee are computed with it', (_, query, floor) => {
    const window = lineaWindow(LINEA_2026_01)
    const levels = suggestionsOf(window)
    const cost = transactionCost(window, levels, query, chain)
    expect(cost.priorityFeeFloor).toBe(floor)
    expect(cost.l1DataFee).toBe(0n)
    for (const u of ['low', 'medium', 'high'] as const) {
      const s = levels[u].fees!
      expect(cost.levels[u].maxPriorityFeePerGas).toBe(floor)
      // the level's headroom over the base fee, on top of the raised tip
      expect(cost.levels[u].maxFeePerGas).toBe(s.maxFeePerGas + floor - s.maxPriorityFeePerGas)
      expect(cost.levels[u].fee).toBe(400_000n * (7n + floor))
      expect(cost.levels[u].maxFee).toBe(400_000n * cost.levels[u].maxFeePerGas)
    }
  })

  test('behavior: the 20 KB transaction is about 20,5xx unsigned bytes: within the same 32-byte step of the bound', () => {
    const size = (LINEA_20KB_TX.length - 2) / 2
    expect(size >= 20_520 && size <= 20_551).toBe(true)
  })

  test('behavior: without a v1 extraData the answer is as before: the levels\u2019 own tips, no floor', () => {
    const window = lineaWindow()
    const levels = suggestionsOf(window)
    const cost = transactionCost(window, levels, { gas: 400_000n, txBytes: 20_534 }, chain)
    expect(cost.priorityFeeFloor).toBeNull()
    expect(cost.l1DataFee).toBe(0n)
    for (const u of ['low', 'medium', 'high'] as const)
      expect(cost.levels[u].maxPriorityFeePerGas).toBe(levels[u].fees!.maxPriorityFeePerGas)
  })
})

// scroll-tech/scroll-revm @ a1ac004a src/l1block.rs test_rollup_fee_galileo's parameters
const SCROLL: L1FeeParams = { ...SCROLL_REVM }

describe('transactionCost on Scroll: Galileo', () => {
  const window = { ...baseAtFloor(SCROLL), chainId: 534352, headExtraData: undefined }
  const levels = levelSuggestions(window, chainFeePolicy(534352))
  const chain = { l1FeeRule: 'scroll' as const }
  const tx32 = `0x${'ab'.repeat(32)}` as const

  test.each([
    // cs = 32 + 68 = 100: the node's own vector, 344,821,983,141 wei
    ['txBytes: the fee at size + 68, an upper bound', { gas: 21_000n, txBytes: 32 }, 344_821_983_141n, 'upperBound'],
    ['tx without the compressor: the same bound', { gas: 21_000n, tx: tx32 }, 344_821_983_141n, 'upperBound'],
    ['tx with its compressed size (50): exact', { gas: 21_000n, tx: tx32, scrollCompressedSize: 50 }, 171_557_471_810n, 'exact'],
    // reth compression.rs galileo-mismatch: zstd size 301 → 1,058,569,688,860 wei (the research doc, derived)
    ['tx with the galileo-mismatch size (301)', { gas: 21_000n, tx: tx32, scrollCompressedSize: 301 }, 1_058_569_688_860n, 'exact'],
    ['a compressed size without tx is ignored', { gas: 21_000n, txBytes: 32, scrollCompressedSize: 50 }, 344_821_983_141n, 'upperBound'],
  ] as const)('behavior: %s', (_, query, fee, basis) => {
    const cost = transactionCost(window, levels, query, chain)
    expect(cost.l1DataFee).toBe(fee)
    expect(cost.l1DataFeeBasis).toBe(basis)
    expect(cost.operatorFee).toBe(0n)
    const tip = levels.medium.fees!.maxPriorityFeePerGas
    expect(cost.levels.medium.fee).toBe(21_000n * (5_000_000n + tip) + fee)
  })
})

// mantle-xyz/op-geth @ 11fa8109 core/types/rollup_cost_test.go: L1 fee 3,203,000,000,000 MNT wei at the minimum
// size, operator fee 1,256,650,673,615,173,860 for gas 1,618 (TestTotalRollupCostFunc: 1,256,653,876,615,173,860)
const MANTLE: L1FeeParams = { ...MANTLE_GETH }

describe('transactionCost on Mantle: Arsia, in MNT', () => {
  const window = { ...baseAtFloor(MANTLE), chainId: 5000, headExtraData: undefined }
  const levels = levelSuggestions(window, chainFeePolicy(5000))
  const chain = { l1FeeRule: 'mantle' as const, nativeToken: 'MNT' }

  test.each([
    ['txBytes (getL1FeeUpperBound × tokenRatio)', { gas: 1_618n, txBytes: 51 }, 'upperBound'],
    ['tx (the signed fee × tokenRatio)', { gas: 1_618n, tx: TRANSFER }, 'exact'],
  ] as const)('default: %s: the L1 fee and operator fee of TestTotalRollupCostFunc, named MNT', (_, query, basis) => {
    const cost = transactionCost(window, levels, query, chain)
    expect(cost).toMatchObject({
      nativeToken: 'MNT',
      l1DataFee: 3_203_000_000_000n,
      l1DataFeeBasis: basis,
      operatorFee: 1_256_650_673_615_173_860n,
    })
    for (const u of ['low', 'medium', 'high'] as const) {
      const s = levels[u].fees!
      expect(cost.levels[u].fee - 1_618n * (5_000_000n + s.maxPriorityFeePerGas)).toBe(1_256_653_876_615_173_860n)
      // the operator fee is charged up front on the gas limit: counted once, on gas, in maxFee
      const l1Cap = l1FeeCap(3_203_000_000_000n, u, 2_000)
      expect(cost.levels[u].maxFee).toBe(1_618n * s.maxFeePerGas + l1Cap + 1_256_650_673_615_173_860n)
    }
  })
})

describe('transactionCost on zkSync Era: pubdata in gas, no tip', () => {
  test.each([324, 300])('default: chain %i: tips 0, fee = gas × the next base fee, no fee beside gas', (chainId) => {
    const fees = Array(500).fill(25_000_000n)
    const rewards = fees.map(() => flatRewards(1_000_000n))
    const window = {
      ...makeWindow({ baseFees: fees, next: 25_000_000n, rewards, intervalMs: 1_000 }),
      chainId,
      headGasLimit: '1125899906842624',
    }
    const levels = levelSuggestions(window, windowPolicy(chainFeePolicy(chainId), window))
    const cost = transactionCost(window, levels, { gas: 250_000n }, { nativeToken: 'ETH' })
    expect(cost).toMatchObject({ l1DataFee: 0n, l1DataFeeBasis: 'exact', operatorFee: 0n, priorityFeeFloor: null })
    for (const u of ['low', 'medium', 'high'] as const) {
      expect(cost.levels[u].maxPriorityFeePerGas).toBe(0n)
      expect(cost.levels[u].fee).toBe(250_000n * 25_000_000n)
      // max fees sized on the base fee's own movement: at least one block's planned 1/8 rise
      expect(cost.levels[u].maxFeePerGas >= 25_000_000n + 25_000_000n / 8n).toBe(true)
    }
  })
})
