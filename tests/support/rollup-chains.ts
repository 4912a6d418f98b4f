// Chains shaped like the rollups of issue 41, for the fake node of rollup-node.ts: their predeploys at
// their addresses, Linea's extraData v1, Multicall3 where each has it, and fees and L1 parameters that
// move every block (each a pure function of the block number, so a test knows what any block held).
import type { Hex } from 'viem'
import type { Contracts } from './predeploy-calls'
import { ZKSYNC_MULTICALL3 } from './predeploy-calls'
import type { RollupBlock, RollupChain } from './rollup-node'

const MWEI = 1_000_000n
const GWEI = 1_000_000_000n

/** Scroll's L1GasPriceOracle (scroll-contracts src/L2/predeploys/L1GasPriceOracle.sol). */
export const SCROLL_ORACLE = '0x5300000000000000000000000000000000000002'
/** OP-stack predeploys, at the same addresses on Mantle (mantle-v2 contracts-bedrock). */
export const GAS_PRICE_ORACLE = '0x420000000000000000000000000000000000000F'
export const L1_BLOCK = '0x4200000000000000000000000000000000000015'

/** A base fee that moves a few percent a block and back, well inside EIP-1559's ±12.5%. */
const wavy = (base: bigint, n: number) => base + (base * BigInt(n % 8)) / 100n

// ---------------------------------------------------------------- Linea (59144)

/** Linea's pricing at block n, kwei as the header carries it (LineaExtraDataHandler v1: fixed, variable, ethGasPrice). */
export function lineaPricingAt(n: number): { fixedKwei: bigint; variableKwei: bigint; ethGasPriceKwei: bigint } {
  return {
    // 0.03 gwei, as mainnet, give or take 1 Mwei
    fixedKwei: 30_000n + BigInt(n % 3) * 1_000n,
    // 1 gwei a compressed byte (mainnet 2026-01) to 1.3 gwei
    variableKwei: 1_000_000n + BigInt(n % 7) * 50_000n,
    // 0.0419 gwei (mainnet 2026-01) to 0.1139 gwei: above the profitable tip of a transfer on some blocks
    ethGasPriceKwei: 41_904n + BigInt(n % 5) * 18_000n,
  }
}

/** Linea's header extraData v1: 0x01, then fixed, variable and ethGasPrice as big-endian uint32 kwei, then 19 zero bytes (32 bytes). */
export function lineaExtraData(n: number): Hex {
  const p = lineaPricingAt(n)
  const u32 = (v: bigint) => v.toString(16).padStart(8, '0')
  return `0x01${u32(p.fixedKwei)}${u32(p.variableKwei)}${u32(p.ethGasPriceKwei)}${'00'.repeat(19)}`
}

/** Linea: the base fee at its 7 wei floor, 2 s blocks, recent tips of 20–35 Mwei, extraData v1 changing every block. */
export function lineaChain(startHead = 28_279_180): RollupChain {
  return {
    chainId: 59144,
    startHead,
    intervalMs: 2_000,
    block: (n): RollupBlock => ({
      baseFee: 7n,
      gasUsedRatio: 0.2 + (n % 5) * 0.05,
      tips: [20n * MWEI + BigInt(n % 4) * MWEI, 28n * MWEI, 35n * MWEI],
      extraData: lineaExtraData(n),
    }),
  }
}

// ---------------------------------------------------------------- Scroll (534352)

/** Scroll's L1GasPriceOracle getters at block n, after GalileoV2 (scroll-revm l1block.rs test parameters, moving). */
export function scrollOracleAt(n: number) {
  return {
    l1BaseFee: GWEI + BigInt(n % 10) * 37n * MWEI,
    l1BlobBaseFee: MWEI + BigInt(n % 6) * 250_000n,
    commitScalar: 2_394_981_796n + BigInt(n % 3) * 1_000n,
    blobScalar: 1_019_097_245n + BigInt(n % 5) * 1_000n,
    penaltyFactor: 10_000n + BigInt(n % 2) * 5_000n,
  }
}

/** Scroll after GalileoV2: Multicall3 at the canonical address, 2 s blocks. */
export function scrollChain(startHead = 26_000_000): RollupChain {
  return {
    chainId: 534352,
    startHead,
    intervalMs: 2_000,
    block: (n) => ({ baseFee: wavy(120_000n, n), gasUsedRatio: 0.3, tips: [10_000n, 50_000n, 100_000n] }),
    contractsAt: (n): Contracts => ({
      [SCROLL_ORACLE]: {
        ...scrollOracleAt(n),
        overhead: 2_500n,
        scalar: 1_000_000_000n,
        penaltyThreshold: 1_000_000_000n,
        isCurie: true,
        isFeynman: true,
        isGalileo: true,
      },
    }),
  }
}

// ---------------------------------------------------------------- Mantle (5000)

/** Mantle's GasPriceOracle and L1Block values at block n, after Arsia (moving every block). */
export function mantleAt(n: number) {
  return {
    l1BaseFee: 2n * GWEI + BigInt(n % 9) * 41n * MWEI,
    blobBaseFee: 3n * MWEI + BigInt(n % 4) * MWEI,
    baseFeeScalar: 1_368 + (n % 5),
    blobBaseFeeScalar: 810_949 + (n % 3) * 7,
    // MNT per ETH, 1e0 scale as GasPriceOracle.tokenRatio() answers it
    tokenRatio: 4_000n + BigInt(n % 50) * 13n,
    operatorFeeScalar: 2_000 + (n % 9),
    operatorFeeConstant: GWEI + BigInt(n % 4) * 1_000n,
  }
}

/** Mantle after Arsia: GasPriceOracle (Fjord getters, tokenRatio, isArsia) and L1Block's operator fee, 2 s blocks. */
export function mantleChain(startHead = 90_000_000): RollupChain {
  return {
    chainId: 5000,
    startHead,
    intervalMs: 2_000,
    block: (n) => ({ baseFee: wavy(20n * MWEI, n), gasUsedRatio: 0.4, tips: [0n, MWEI, 2n * MWEI] }),
    contractsAt: (n): Contracts => {
      const v = mantleAt(n)
      return {
        [GAS_PRICE_ORACLE]: {
          l1BaseFee: v.l1BaseFee,
          blobBaseFee: v.blobBaseFee,
          baseFeeScalar: v.baseFeeScalar,
          blobBaseFeeScalar: v.blobBaseFeeScalar,
          tokenRatio: v.tokenRatio,
          decimals: 6n,
          isArsia: true,
        },
        [L1_BLOCK]: { operatorFeeScalar: v.operatorFeeScalar, operatorFeeConstant: v.operatorFeeConstant },
      }
    },
  }
}

// ---------------------------------------------------------------- zkSync Era (324)

/** zkSync Era: Multicall3 at its own address, a base fee that moves every block, tips wallets send but the bootloader ignores. */
export function zkSyncChain(startHead = 60_000_000): RollupChain {
  return {
    chainId: 324,
    startHead,
    intervalMs: 2_000,
    multicall3: ZKSYNC_MULTICALL3,
    block: (n) => ({ baseFee: wavy(45_250_000n, n), gasUsedRatio: 0.25, tips: [MWEI, 5n * MWEI] }),
  }
}
