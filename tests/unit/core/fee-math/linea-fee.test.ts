// Linea's data-priced tip. Headers: Consensys/linea-monorepo @ cb180134, the replay blocks of
// tracer/arithmetization/src/test/resources/replays (mainnet 6,029,454 of 2024-06, a Clique header;
// Sepolia 21,511,543 of 2025-12) and coordinator MinerExtraDataV1Test; mainnet 28,279,180 (2026-01) and
// 16,306,807 (2025-02) from ../shared/research/rollup-fee-rules.md. Tips: the formula of
// TransactionProfitabilityCalculator.java, the research doc's derived table.
import { describe, expect, test } from 'vitest'
import {
  LINEA_MARGIN_PERMILLE,
  lineaCompressedSizeBound,
  lineaPriorityFeeFloor,
  lineaProfitablePriorityFee,
  parseLineaExtraData,
} from '@/lib/core/fee-math/linea-fee'

const pad = (head: string) => head + '00'.repeat(32 - (head.length - 2) / 2)
const MAINNET_2026_01 = pad('0x0100007530000f42400000a3b0')
const MAINNET_2025_02 = pad('0x01000075300100c345000383b3')
const SEPOLIA_2025_12 = '0x01000061a8000f42400000902800000000000000000000000000000000000000'
// block 6,029,454: the Clique era's 32-byte vanity (the v1 pricing) then the 65-byte seal
const CLIQUE_2024_06 =
  '0x010000753000000c350000c350000000000000000000000000000000000000003642b9aaea0cedecf573b3d6412503bbca6681a0e56a8b69634e24bd2d09385d47ad09b0906d3ef54518d8b91c51b7eda7cbae7db0189858d7356b65396af57800'
// the SDK's unit-test block (ts-libs/sdk LineaProvider.test.ts), not a mainnet header: 10 gwei fixed
const SDK_MOCK = '0x0100989680015eb3c80000ea60'

const mainnet = parseLineaExtraData(MAINNET_2026_01)!

describe('parseLineaExtraData', () => {
  test.each([
    ['mainnet 2026-01', MAINNET_2026_01, ['30000000', '1000000000', '41904000']],
    ['mainnet 2025-02', MAINNET_2025_02, ['30000000', '16827205000', '230323000']],
    ['Sepolia 2025-12', SEPOLIA_2025_12, ['25000000', '1000000000', '36904000']],
    ['mainnet 2024-06, a Clique header (vanity ‖ seal)', CLIQUE_2024_06, ['30000000', '3125000', '50000000']],
    ['MinerExtraDataV1Test case 1', pad('0x017ffffffe7fffffff80000000'), ['2147483646000', '2147483647000', '2147483648000']],
    ['MinerExtraDataV1Test case 2 (uint32 max)', pad('0x01000000007fffffffffffffff'), ['0', '2147483647000', '4294967295000']],
    ['exactly 13 bytes', '0x0100007530000f42400000a3b0', ['30000000', '1000000000', '41904000']],
  ])('default: %s: the three uint32 kwei fields, in wei', (_, extraData, [fixed, variable, ethGasPrice]) => {
    expect(parseLineaExtraData(extraData)).toEqual({ fixedCostWei: fixed, variableCostWei: variable, ethGasPriceWei: ethGasPrice })
  })

  test.each([
    ['empty', '0x'],
    ['version 0 (a zero vanity)', `0x${'00'.repeat(32)}`],
    ['a Clique header whose vanity is not v1', `0x${'00'.repeat(32)}${'ab'.repeat(65)}`],
    ['version 2 (MinerExtraDataV1Test: unsupported)', pad('0x027ffffffe7fffffff80000000')],
    ['too short (12 bytes)', '0x0100007530000f42400000a3'],
    ['not hex', '0x01zz007530000f42400000a3b0'],
    ['an odd number of digits', '0x0100007530000f42400000a3b00'],
  ])('behavior: %s is not Linea pricing: null', (_, extraData) => {
    expect(parseLineaExtraData(extraData)).toBeNull()
  })
})

describe('lineaCompressedSizeBound', () => {
  test.each([
    [51, 96], // the plain EIP-1559 transfer: ceil(8·74/254) = 3 field elements
    [0, 32],
    [104, 128], // 8·127 = 4·254: exactly four elements
    [105, 160],
    [20_534, 20_736],
  ])('default: %i unsigned bytes → at most %i compressed bytes', (size, bound) => {
    expect(lineaCompressedSizeBound(size)).toBe(bound)
  })
})

describe('lineaProfitablePriorityFee', () => {
  test.each([
    ['mainnet 2026-01', MAINNET_2026_01, 1200, 21_000n, 64, 39_657_142n],
    ['mainnet 2026-01', MAINNET_2026_01, 1000, 21_000n, 64, 33_047_619n],
    ['mainnet 2026-01', MAINNET_2026_01, 800, 21_000n, 64, 26_438_095n],
    ['mainnet 2026-01', MAINNET_2026_01, 1200, 21_000n, 96, 41_485_713n],
    ['mainnet 2026-01', MAINNET_2026_01, 1200, 100_000n, 160, 37_920_000n],
    ['mainnet 2025-02', MAINNET_2025_02, 1200, 21_000n, 64, 97_539_492n],
    ['mainnet 2025-02', MAINNET_2025_02, 1000, 21_000n, 96, 106_924_365n],
    ['the SDK mock', SDK_MOCK, 1200, 21_000n, 64, 12_084_054_396n],
  ])('default: %s, margin %i‰, %i gas, cs %i: %i wei', (_, extraData, marginPermille, gas, compressedSize, tip) => {
    const params = parseLineaExtraData(extraData)!
    expect(lineaProfitablePriorityFee({ params, gas, compressedSize, marginPermille })).toBe(tip)
  })

  test("default: the margin is linea_estimateGas's 1.2 of the mainnet profile", () => {
    expect(LINEA_MARGIN_PERMILLE.estimateGas).toBe(1200)
    expect(lineaProfitablePriorityFee({ params: mainnet, gas: 21_000n, compressedSize: 96 })).toBe(41_485_713n)
  })

  test("behavior: equals Java's truncated double product (margin × inner) on the mainnet margins", () => {
    for (const margin of [1.2, 1.0, 0.8]) {
      for (let cs = 32; cs <= 128 * 1024; cs += 4_064) {
        for (const gas of [21_000, 65_000, 400_000, 24_000_000]) {
          const inner = Math.floor((1e9 * cs) / gas) + 3e7
          const tip = lineaProfitablePriorityFee({ params: mainnet, gas: BigInt(gas), compressedSize: cs, marginPermille: margin * 1000 })
          expect(tip).toBe(BigInt(Math.trunc(margin * inner)))
        }
      }
    }
  })

  test('error: gas 0', () => {
    expect(() => lineaProfitablePriorityFee({ params: mainnet, gas: 0n, compressedSize: 96 })).toThrow(RangeError)
  })
})

describe('lineaPriorityFeeFloor', () => {
  test('default: a transfer on mainnet 2026-01 at base fee 7 wei: the minimum gas price decides (41,904,000 − 7)', () => {
    const floor = lineaPriorityFeeFloor({ params: mainnet, gas: 21_000n, compressedSize: lineaCompressedSizeBound(51), baseFee: 7n })
    expect(floor).toBe(41_903_993n)
  })

  test('behavior: a data-heavy transaction: the profitable tip decides', () => {
    const compressedSize = lineaCompressedSizeBound(20_534)
    const floor = lineaPriorityFeeFloor({ params: mainnet, gas: 400_000n, compressedSize, baseFee: 7n })
    expect(floor).toBe((((1_000_000_000n * 20_736n) / 400_000n + 30_000_000n) * 12n) / 10n)
    expect(floor).toBe(98_208_000n)
  })

  test('behavior: a base fee above the minimum gas price and a zero-cost pricing: 0, never negative', () => {
    const free = { fixedCostWei: '0', variableCostWei: '0', ethGasPriceWei: '41904000' }
    expect(lineaPriorityFeeFloor({ params: free, gas: 21_000n, compressedSize: 96, baseFee: 50_000_000n })).toBe(0n)
  })
})
