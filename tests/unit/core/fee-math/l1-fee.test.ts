// The L1 fee formulas against the published test vectors: op-geth core/types/rollup_cost_test.go
// (Fjord minimum bounds, Solidity parity, FlzCompressLen) and contracts-bedrock
// test/L2/GasPriceOracle.t.sol (GasPriceOracleFjordActive_Test: getL1Fee, getL1FeeUpperBound); and the fee the node
// charges a signed transaction, against transactions signed with a real key.
import { serializeTransaction, type Hex, type TransactionSerializable } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import {
  arbitrumL1Fee,
  fjordL1Cost,
  fjordL1FeeUpperBound,
  flzCompressedLength,
  l1DataFee,
  l1DataFeeUpperBound,
  operatorFee,
} from '@/lib/core/fee-math/l1-fee'
import { scrollGalileoL1Fee } from '@/lib/core/fee-math/scroll-fee'
import type { L1FeeParams } from '@/lib/core/types'

type Op = Extract<L1FeeParams, { rule: 'op-stack' }>
const op = (p: Partial<Op>): Op => ({
  rule: 'op-stack',
  l1BaseFee: '0',
  blobBaseFee: '0',
  baseFeeScalar: 0,
  blobBaseFeeScalar: 0,
  isthmus: false,
  jovian: false,
  operatorFeeScalar: 0,
  operatorFeeConstant: '0',
  ...p,
})

// rollup_cost_test.go: baseFee = 1000 × 1e6, blobBaseFee = 10 × 1e6, baseFeeScalar 2, blobBaseFeeScalar 3
const geth = op({ l1BaseFee: '1000000000', blobBaseFee: '10000000', baseFeeScalar: 2, blobBaseFeeScalar: 3 })
// GasPriceOracle.t.sol (Fjord active): baseFee 2e6, blobBaseFee 3e6, baseFeeScalar 20, blobBaseFeeScalar 15
const gpo = op({ l1BaseFee: '2000000', blobBaseFee: '3000000', baseFeeScalar: 20, blobBaseFeeScalar: 15 })

// GasPriceOracle.t.sol's 161-byte transaction of the regression test
const REGRESSION_TX = ('0x' +
  '1d2c3ec4f5a9b3f3cd2c024e455c1143a74bbd637c324adcbd4f74e346786ac44e23e78f47d932abedd8d1' +
  '06daadcea350be16478461046273101034601364012364701331dfad43729dc486abd134bcad61b34d6ca1' +
  'f2eb31655b7d61ca33ba6d172cdf7d8b5b0ef389a314ca7a9a831c09fc2ca9090d059b4dd25194f3de297b' +
  'dba6d6d796e4f80be94f8a9151d685607826e7ba25177b40cb127ea9f1438470') as `0x${string}`

describe('OP-stack Fjord L1 fee', () => {
  test.each([100n, 150n, 170n])(
    'default: a FastLZ size of %s is at the 100-byte floor: 3,203,000 wei (TestFjordL1CostFuncMinimumBounds)',
    (size) => {
      expect(fjordL1Cost(size, geth)).toBe(3_203_000n)
    },
  )

  test.each([171n, 175n, 200n])('behavior: a FastLZ size of %s is above the floor', (size) => {
    expect(fjordL1Cost(size, geth) > 3_203_000n).toBe(true)
  })

  test('behavior: Solidity parity: FastLZ size 235 costs 105,484 wei (TestFjordL1CostSolidityParity)', () => {
    expect(fjordL1Cost(235n, gpo)).toBe(105_484n)
  })

  test.each([
    ['empty', '0x', 0],
    ['1,000 × 0x01', `0x${'01'.repeat(1000)}`, 21],
    ['1,000 × 0x00', `0x${'00'.repeat(1000)}`, 21],
    ['the GasPriceOracle test data 0x0000010203', '0x0000010203', 6],
    ['the 161-byte regression transaction', REGRESSION_TX, 167],
  ] as const)('behavior: FastLZ length of %s as LibZip compresses it (TestFlzCompressLen, GasPriceOracle.t.sol)', (_, data, length) => {
    expect(flzCompressedLength(data as `0x${string}`)).toBe(length)
  })

  test('behavior: getL1Fee (FastLZ size + 68) and getL1FeeUpperBound as GasPriceOracle.t.sol expects them', () => {
    expect(oracleGetL1Fee('0x0000010203', gpo)).toBe(68_500n)
    expect(l1DataFeeUpperBound(5, gpo)).toBe(68_500n)
    expect(oracleGetL1Fee(REGRESSION_TX, gpo)).toBe(105_484n)
    expect(l1DataFeeUpperBound(161, gpo)).toBe(111_214n)
  })
})

/** GasPriceOracle.getL1Fee(data): _fjordL1Cost(LibZip.flzCompress(data).length + 68). */
const oracleGetL1Fee = (data: Hex, p: Op) => fjordL1Cost(BigInt(flzCompressedLength(data) + 68), p)

describe('OP-stack Fjord L1 fee of a transaction, as the node charges it once signed', () => {
  // "fastlzSize: size of the FastLZ-compressed RLP-encoded signed tx" (specs protocol/fjord/exec-engine.md)
  const account = privateKeyToAccount('0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318')
  const to: Hex = '0x4200000000000000000000000000000000000006'
  let seed = 7
  const noise = (bytes: number) =>
    `0x${Array.from({ length: bytes }, () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) >> 16) % 256)
      .map((b) => b.toString(16).padStart(2, '0'))
      .join('')}` as Hex
  const base = { chainId: 8453, nonce: 12, gas: 90_000n, to }
  const transactions: [string, TransactionSerializable][] = [
    ['a transfer', { ...base, maxFeePerGas: 1_000_000_000n, maxPriorityFeePerGas: 1_000_000n, value: 10n ** 16n }],
    [
      'an ERC-20 transfer',
      {
        ...base,
        maxFeePerGas: 5_000_000n,
        maxPriorityFeePerGas: 1n,
        data: `0xa9059cbb${'00'.repeat(12)}${to.slice(2)}${'00'.repeat(31)}64`,
      },
    ],
    ['1 KB of repetitive calldata', { ...base, maxFeePerGas: 5_000_000n, maxPriorityFeePerGas: 1n, data: `0x${'00112233'.repeat(256)}` }],
    ['1,014 bytes of noise', { ...base, maxFeePerGas: 5_000_000n, maxPriorityFeePerGas: 1n, data: noise(1014) }],
    ['20 KB of noise', { ...base, gas: 2_000_000n, maxFeePerGas: 5_000_000n, maxPriorityFeePerGas: 1n, data: noise(20_480) }],
    ['legacy, EIP-155', { ...base, type: 'legacy', gasPrice: 7_000_000n, value: 1n }],
    ['EIP-2930', { ...base, type: 'eip2930', gasPrice: 7_000_000n, accessList: [{ address: to, storageKeys: [`0x${'01'.repeat(32)}`] }] }],
  ]

  test.each(transactions)('default: %s: the Fjord fee at the FastLZ size of the signed transaction', async (_, tx) => {
    const signed = await account.signTransaction(tx)
    expect(l1DataFee(serializeTransaction(tx), geth)).toBe(fjordL1Cost(BigInt(flzCompressedLength(signed)), geth))
  })

  test("behavior: not GasPriceOracle.getL1Fee's unsigned size + 68, which differs for some of these", async () => {
    const differs = []
    for (const [name, tx] of transactions) {
      if (l1DataFee(serializeTransaction(tx), geth) !== oracleGetL1Fee(serializeTransaction(tx), geth)) differs.push(name)
    }
    expect(differs.length).toBeGreaterThan(0)
  })

  test('behavior: Mantle: the same fee × tokenRatio', () => {
    const mantle = { ...geth, rule: 'mantle' as const, tokenRatio: '4000', operatorFeeScalar: 0, operatorFeeConstant: '0' }
    const unsigned = serializeTransaction(transactions[3]![1])
    expect(l1DataFee(unsigned, mantle)).toBe(l1DataFee(unsigned, geth) * 4000n)
  })

  test('behavior: the upper bound is never below the fee of a transaction of that size', () => {
    for (const [, tx] of transactions) {
      const unsigned = serializeTransaction(tx)
      expect(l1DataFeeUpperBound((unsigned.length - 2) / 2, geth) >= l1DataFee(unsigned, geth)).toBe(true)
    }
  })
})

describe('OP-stack operator fee', () => {
  test('default: 0 before Isthmus, whatever the parameters', () => {
    expect(operatorFee(1_000_000n, op({ operatorFeeScalar: 7, operatorFeeConstant: '9' }))).toBe(0n)
  })

  test('behavior: Isthmus: gas × scalar / 10^6 + constant, rounded down', () => {
    const p = op({ isthmus: true, operatorFeeScalar: 1_500_000, operatorFeeConstant: '400' })
    expect(operatorFee(21_001n, p)).toBe((21_001n * 1_500_000n) / 1_000_000n + 400n)
    expect(operatorFee(21_001n, p)).toBe(31_501n + 400n)
  })

  test('behavior: Jovian: gas × scalar × 100 + constant (the design table: 30M gas at scalar 1 is 3 gwei)', () => {
    const p = op({ isthmus: true, jovian: true, operatorFeeScalar: 1, operatorFeeConstant: '0' })
    expect(operatorFee(30_000_000n, p)).toBe(3_000_000_000n)
    expect(operatorFee(1_000_000n, p)).toBe(100_000_000n)
    expect(operatorFee(21_000n, { ...p, operatorFeeScalar: 300, operatorFeeConstant: '400' })).toBe(21_000n * 300n * 100n + 400n)
  })
})

describe('Arbitrum L1 component', () => {
  test('default: the price per L1 calldata byte × the signed size (unsigned + 68 bytes)', () => {
    expect(arbitrumL1Fee(51, { rule: 'arbitrum', perL1CalldataByte: '1600000' })).toBe((51n + 68n) * 1_600_000n)
  })
})

describe('one entry per question, whatever the rule', () => {
  const mantle = {
    ...geth,
    rule: 'mantle' as const,
    tokenRatio: '1000000',
    operatorFeeScalar: 1_439_103_868,
    operatorFeeConstant: '1256417826609331460',
  }
  const scroll = {
    rule: 'scroll' as const,
    l1BaseFee: '1000000000',
    l1BlobBaseFee: '1000000000',
    commitScalar: '2394981796',
    blobScalar: '1019097245',
    penaltyFactor: '10000',
  }
  const arbitrum = { rule: 'arbitrum' as const, perL1CalldataByte: '1600000' }

  test('default: OP-stack: getL1FeeUpperBound as before (GasPriceOracle.t.sol)', () => {
    expect(l1DataFeeUpperBound(161, gpo)).toBe(111_214n)
  })

  test('behavior: Mantle: the Fjord fee × tokenRatio, and the Arsia operator fee', () => {
    // an empty transaction's bound is at the minimum size: rollup_cost_test.go's 3,203,000,000,000
    expect(l1DataFeeUpperBound(0, mantle)).toBe(3_203_000_000_000n)
    expect(l1DataFeeUpperBound(161, mantle)).toBe(fjordL1FeeUpperBound(161, mantle) * 1_000_000n)
    expect(operatorFee(1_618n, mantle)).toBe(1_256_650_673_615_173_860n)
  })

  test('behavior: Scroll: the Galileo fee at the size + 68 bytes, with txBytes or tx; no operator fee', () => {
    expect(l1DataFeeUpperBound(51, scroll)).toBe(scrollGalileoL1Fee(119, scroll))
    expect(l1DataFee('0x0000010203', scroll)).toBe(scrollGalileoL1Fee(5 + 68, scroll))
    expect(operatorFee(1_000_000n, scroll)).toBe(0n)
  })

  test('behavior: Arbitrum: the price per byte × the signed size; no operator fee', () => {
    expect(l1DataFeeUpperBound(51, arbitrum)).toBe(arbitrumL1Fee(51, arbitrum))
    expect(l1DataFee('0x0000010203', arbitrum)).toBe(arbitrumL1Fee(5, arbitrum))
    expect(operatorFee(21_000n, arbitrum)).toBe(0n)
  })
})
