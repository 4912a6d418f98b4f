// The fast chains of issue 44 part 2 as data for tests/support/fast-chain-node.ts: each at its own cadence, its
// blocks' fees a pure function of the block number, with the reads and predeploys its rules need.
import { GAS_PRICE_ORACLE } from './rollup-chains'
import type { FastChain } from './fast-chain-node'

const GWEI = 1_000_000_000n
const MWEI = 1_000_000n

const ARB_GAS_INFO = '0x000000000000000000000000000000000000006C'
const ARB_OWNER_PUBLIC = '0x000000000000000000000000000000000000006b'
const ARB_PRICES = [224_000_000n, 1_600_000n, 2_000_000_000_000n, 20_000_000n, 0n, 20_000_000n]
export const SEI_GAS_PRICE = 5n * GWEI
export const HYPER_BIG_PRICE = 2n * GWEI
export const ARB_MINIMUM = GWEI / 10n

const flat =
  (baseFee: bigint, tips: bigint[], gasUsedRatio = 0.2) =>
  () => ({ baseFee, gasUsedRatio, tips })
export const chains: Record<string, FastChain> = {
  // a 0-wei system transaction leads every block; users pay 0.3–1 gwei
  bsc: {
    chainId: 56,
    startHead: 60_000_000,
    intervalMs: 450,
    finalizedDepth: 2,
    blobs: true,
    block: flat(0n, [0n, 300n * MWEI, 500n * MWEI, GWEI]),
  },
  // GasPriceOracle at Fjord with GasPriceOracle.t.sol's parameters: getL1FeeUpperBound(161) = 111,214 wei
  opBnb: {
    chainId: 204,
    startHead: 90_000_000,
    intervalMs: 250,
    block: flat(0n, [1_001_000n, 2n * MWEI]),
    contractsAt: () => ({
      [GAS_PRICE_ORACLE]: {
        l1BaseFee: 2n * MWEI,
        blobBaseFee: 3n * MWEI,
        baseFeeScalar: 20,
        blobBaseFeeScalar: 15,
        isEcotone: true,
        isFjord: true,
      },
    }),
  },
  // quiet Monad at MIN_BASE_FEE, tips of 0.5–1 gwei, its eth_feeHistory repeating the head's base fee as the next
  monad: {
    chainId: 143,
    startHead: 40_000_000,
    intervalMs: 300,
    nextRepeatsHead: true,
    block: flat(100n * GWEI, [GWEI / 2n, 600n * MWEI, GWEI]),
  },
  // blocks at 50 gwei; its eth_feeHistory says 55 (MinGasPrice) throughout, as a Sonic node's does
  sonic: { chainId: 146, startHead: 50_000_000, intervalMs: 1_000, feeHistoryMinGasPrice: true, block: flat(50n * GWEI, [1n, 1n, MWEI]) },
  sei: {
    chainId: 1329,
    startHead: 150_000_000,
    intervalMs: 500,
    block: flat(GWEI, [10n * MWEI]),
    methods: { eth_gasPrice: () => SEI_GAS_PRICE },
  },
  // small blocks of 2M gas at the head (the big ones hold 30M)
  hyper: {
    chainId: 999,
    startHead: 20_000_000,
    intervalMs: 1_000,
    gasLimit: 2_000_000,
    block: flat(GWEI / 10n, [GWEI]),
    methods: { eth_bigBlockGasPrice: () => HYPER_BIG_PRICE },
  },
  mega: { chainId: 4326, startHead: 8_000_000, intervalMs: 1_000, block: flat(GWEI / 1000n, [MWEI]) },
  arbitrum: {
    chainId: 42161,
    startHead: 300_000_000,
    intervalMs: 250,
    arbitrum: true,
    block: flat(GWEI / 50n, [GWEI / 100n, GWEI], 0.1),
    contractsAt: () => ({
      [ARB_GAS_INFO]: { getPricesInWei: ARB_PRICES, getMinimumGasPrice: ARB_MINIMUM },
      [ARB_OWNER_PUBLIC]: { getCollectTips: false },
    }),
  },
  // Nova with tips collected (ArbOS 60 after the vote)
  nova: {
    chainId: 42170,
    startHead: 80_000_000,
    intervalMs: 250,
    arbitrum: true,
    block: flat(GWEI / 100n, [GWEI / 100n, GWEI / 10n], 0.1),
    contractsAt: () => ({
      [ARB_GAS_INFO]: { getPricesInWei: ARB_PRICES, getMinimumGasPrice: GWEI / 100n },
      [ARB_OWNER_PUBLIC]: { getCollectTips: true },
    }),
  },
  ethereum: { chainId: 1, startHead: 23_000_000, intervalMs: 2_000, block: flat(10n * GWEI, [GWEI, 2n * GWEI], 0.5) },
}
