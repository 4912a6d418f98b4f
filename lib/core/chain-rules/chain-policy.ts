import type { L1FeeRule } from '../types'
import { PPM, WEI_PER_GWEI } from '../units'
import { bsc, hyperEvm, megaEth, monad, opBnb, sei, sonic, type ChainRules } from './fast-chains'

/** Chain fee policies as data (like viem's `chain.fees`): one row per chain id, each citing its source. Pure. */

export type ChainFeePolicy = {
  /** Which rules the row follows (also which chains take no blobs: blob-schedule.ts NO_BLOB_FAMILIES). */
  family:
    | 'ethereum'
    | 'op-stack'
    | 'polygon-pos'
    | 'bsc'
    | 'opbnb'
    | 'arbitrum'
    | 'linea'
    | 'zksync'
    | 'avalanche'
    | 'monad'
    | 'sonic'
    | 'sei'
    | 'hyperevm'
    | 'megaeth'
    | 'default'
  /** The lowest tip the chain's validators or sequencer accept, wei: no level suggests less. */
  minPriorityFeeWei: bigint
  /** The lowest tip we suggest, wei (≥ minPriorityFeeWei), as chains' own oracles do (Polygon's gas station, op-geth). */
  minSuggestedPriorityFeeWei: bigint
  /** Tips buy nothing on this chain (ordering is first come, first served): every level suggests 0. */
  ignoresTips: boolean
  /** The protocol's largest base fee rise from one block to the next, ppm of the previous base fee. */
  maxBaseFeeRisePpm: bigint
  /** The protocol's largest base fee fall from one block to the next, ppm. */
  maxBaseFeeFallPpm: bigint
  /** The two bounds are this chain's rules, so data outside them is refused; false: they only plan headroom. */
  enforceBaseFeeBounds: boolean
  /** How much recent history the tips come from, ms of the chain's time. */
  tipWindowMs: number
  /** The most gas one transaction may use by the chain's rule (GET transactionCost refuses more); absent: the block's gas limit. */
  maxTransactionGas?: bigint
  /** The blocks carry live EIP-1559 parameters (OP-stack extraData since Holocene) that set the bounds (withLiveParams). */
  readsLiveParams?: boolean
  /** Set by withLiveParams when the head block carried live parameters: the bounds are then the chain's rule. */
  liveParamsRead?: boolean
  /** Set by chainFeePolicy when configuration overrides either bound: the blocks' live EIP-1559 parameters are then ignored. */
  boundsConfigured?: boolean
  /** The lowest base fee the chain allows, wei (an OP-stack Jovian block's extraData): no forecast goes below it. */
  minBaseFeeWei?: bigint
  /** The chain's own rules beyond EIP-1559's (./fast-chains.ts), applied to every level (lib/core/fee-math/chain-levels.ts). */
  rules?: ChainRules
}

/** EIP-1559 as Ethereum runs it. */
const EIP1559: Pick<ChainFeePolicy, 'maxBaseFeeRisePpm' | 'maxBaseFeeFallPpm' | 'enforceBaseFeeBounds'> = {
  // go-ethereum params/protocol_params.go (denominator 8, elasticity 2), consensus/misc/eip1559/eip1559.go
  // CalcBaseFee: at most ±1/8 a block
  maxBaseFeeRisePpm: PPM / 8n,
  maxBaseFeeFallPpm: PPM / 8n,
  enforceBaseFeeBounds: true,
}

/** EIP-1559's bounds planned for headroom on a chain whose base fee is not set that way: never enforced. */
const ASSUMED_EIP1559: Pick<ChainFeePolicy, 'maxBaseFeeRisePpm' | 'maxBaseFeeFallPpm' | 'enforceBaseFeeBounds'> = {
  maxBaseFeeRisePpm: PPM / 8n,
  maxBaseFeeFallPpm: PPM / 8n,
  enforceBaseFeeBounds: false,
}

/** Long enough for stable quantiles, short enough to follow the market. */
const TIP_WINDOW_MS = 10 * 60_000

const ethereum: ChainFeePolicy = {
  family: 'ethereum',
  minPriorityFeeWei: 0n,
  minSuggestedPriorityFeeWei: 0n,
  ignoresTips: false,
  ...EIP1559,
  tipWindowMs: TIP_WINDOW_MS,
  // EIP-7825 (Osaka); go-ethereum params/protocol_params.go MaxTxGas
  maxTransactionGas: 1n << 24n,
}

const opStack: ChainFeePolicy = {
  family: 'op-stack',
  minPriorityFeeWei: 0n,
  // op-geth eth/gasprice/optimism-gasprice.go DefaultMinSuggestedPriorityFee
  minSuggestedPriorityFeeWei: 1_000_000n,
  ignoresTips: false,
  // Canyon's denominator 250 and elasticity 6 (op-geth PR #165; kona-genesis
  // OP_MAINNET_EIP1559_BASE_FEE_MAX_CHANGE_DENOMINATOR_CANYON): only the fallback for the blocks' live
  // parameters (withLiveParams), which operators change, so never enforced
  maxBaseFeeRisePpm: 20_000n,
  maxBaseFeeFallPpm: 4_000n,
  enforceBaseFeeBounds: false,
  tipWindowMs: TIP_WINDOW_MS,
  readsLiveParams: true,
}

/** Base: OP Stack's rules, and EIP-7825's cap since Azul (docs.base.org upgrades/azul/exec-engine; mainnet 2026-05-28). */
const base: ChainFeePolicy = { ...opStack, maxTransactionGas: 1n << 24n }

const polygonPos: ChainFeePolicy = {
  family: 'polygon-pos',
  // PIP-35: validators and bor's txpool refuse less (bor params/protocol_params.go BorDefaultTxPoolPriceLimit)
  minPriorityFeeWei: 25n * WEI_PER_GWEI,
  // as Polygon's gas station did (Polygon docs, "Estimate gas fees"): a margin over the validators' minimum
  minSuggestedPriorityFeeWei: 30n * WEI_PER_GWEI,
  ignoresTips: false,
  // bor consensus/misc/eip1559/eip1559.go (PIP-58, PIP-80/81): MaxBaseFeeChangePercent bounds every configuration
  maxBaseFeeRisePpm: 50_000n,
  maxBaseFeeFallPpm: 50_000n,
  enforceBaseFeeBounds: true,
  tipWindowMs: TIP_WINDOW_MS,
}

const arbitrum: ChainFeePolicy = {
  family: 'arbitrum',
  minPriorityFeeWei: 0n,
  minSuggestedPriorityFeeWei: 0n,
  // the sequencer is first come, first served (docs.arbitrum.io, "Gas and fees": tips are ignored)
  ignoresTips: true,
  // no per-block bound: the base fee grows exponentially with the gas backlog (nitro arbos/l2pricing/model.go;
  // arbitrum-docs chain parameters); this plans for one block at the effective gas limit, never enforced
  maxBaseFeeRisePpm: 170_000n,
  maxBaseFeeFallPpm: PPM / 8n,
  enforceBaseFeeBounds: false,
  tipWindowMs: TIP_WINDOW_MS,
  // nitro arbos/l2pricing/model.go InitialPerTxGasLimitV50
  maxTransactionGas: 32_000_000n,
  // nitro @ 6dce8d13 arbos/tx_processor.go CollectTips: from ArbOS 60 tips are paid only when the chain owner set
  // them collected (ArbOwnerPublic.getCollectTips, default false); the governed minimum base fee is
  // ArbGasInfo.getMinimumGasPrice (arbos/l2pricing/model.go)
  rules: { arbOsTipsAndFloor: true },
}

const linea: ChainFeePolicy = {
  family: 'linea',
  minPriorityFeeWei: 0n,
  // the floor is the head's: its extraData v1 prices the L1 data into the tip (lib/core/fee-math/window-policy.ts);
  // without one, tips come from the blocks alone
  minSuggestedPriorityFeeWei: 0n,
  ignoresTips: false,
  // the base fee sits at 7 wei (docs.linea.build, "Gas"): EIP-1559's bounds only plan headroom
  ...ASSUMED_EIP1559,
  tipWindowMs: TIP_WINDOW_MS,
}

const zksync: ChainFeePolicy = {
  family: 'zksync',
  minPriorityFeeWei: 0n,
  minSuggestedPriorityFeeWei: 0n,
  // the bootloader charges basefee() alone and only checks maxPriorityFeePerGas ≤ maxFeePerGas
  // (matter-labs/era-contracts @ 5e7d0b40 system-contracts/bootloader/bootloader.yul); the node's
  // eth_maxPriorityFeePerGas answers 0 (matter-labs/zksync-era @ 3e29e4a0 core/node/api_server/src/web3/namespaces/eth.rs)
  ignoresTips: true,
  // the base fee follows the L1 gas and pubdata prices (zksync-era multivm vm_latest/utils/fee.rs), not EIP-1559:
  // plan Ethereum's step and any larger one the window shows, never enforced (as Arbitrum's)
  ...ASSUMED_EIP1559,
  tipWindowMs: TIP_WINDOW_MS,
}

const avalanche: ChainFeePolicy = {
  family: 'avalanche',
  minPriorityFeeWei: 0n,
  minSuggestedPriorityFeeWei: 0n,
  ignoresTips: false,
  // ACP-176 (Fortuna): an excess-gas exponential price, under 1/8 a block: plan Ethereum's, never enforced
  ...ASSUMED_EIP1559,
  tipWindowMs: TIP_WINDOW_MS,
}

/** An unknown chain: EIP-1559's bounds planned for, never enforced; no tip floor. */
export const DEFAULT_FEE_POLICY: ChainFeePolicy = {
  ...ethereum,
  family: 'default',
  enforceBaseFeeBounds: false,
  maxTransactionGas: undefined,
}

/** A row per chain of DEFAULT_PUBLIC_CHAIN_IDS (lib/chains/registry.ts), and a few more. */
export const CHAIN_FEE_POLICIES: Readonly<Record<number, ChainFeePolicy>> = {
  1: ethereum, // Ethereum
  11155111: ethereum, // Sepolia
  10: opStack, // OP Mainnet
  8453: base, // Base
  84532: base, // Base Sepolia (Azul there since 2026-04-20)
  137: polygonPos, // Polygon PoS
  56: bsc, // BNB Smart Chain
  204: opBnb, // opBNB
  143: monad, // Monad
  146: sonic, // Sonic
  1329: sei, // Sei EVM
  999: hyperEvm, // HyperEVM
  4326: megaEth, // MegaETH
  42161: arbitrum, // Arbitrum One
  42170: arbitrum, // Arbitrum Nova
  421614: arbitrum, // Arbitrum Sepolia
  59144: linea, // Linea
  59141: linea, // Linea Sepolia
  324: zksync, // zkSync Era
  300: zksync, // zkSync Sepolia
  43114: avalanche, // Avalanche C-Chain
}

/** An override of some fields of a chain's row (configuration: CHAIN_FEE_POLICIES). */
export type ChainFeePolicyOverride = Partial<Omit<ChainFeePolicy, 'family'>>

/**
 * L1 fee rules of chains that are not found by their predeploys (the registry asks this table first, then whether
 * the chain is OP-stack or Arbitrum): Scroll's L1GasPriceOracle after Galileo, Mantle's GasPriceOracle after Arsia
 * (an OP-stack fork in MNT: not OP-stack here, so it keeps its own fee policy), Linea's extraData-priced tip.
 */
export const L1_FEE_RULES: Readonly<Record<number, L1FeeRule>> = {
  534352: 'scroll', // Scroll
  534351: 'scroll', // Scroll Sepolia
  5000: 'mantle', // Mantle
  5003: 'mantle', // Mantle Sepolia
  59144: 'linea', // Linea
  59141: 'linea', // Linea Sepolia
}

/** A chain's L1 fee rule by the table (L1_FEE_RULES), or undefined. */
export function tabledL1FeeRule(chainId: number): L1FeeRule | undefined {
  return Object.hasOwn(L1_FEE_RULES, chainId) ? L1_FEE_RULES[chainId] : undefined
}

/**
 * L2s whose L1 data fee this service does not compute: GET transactionCost answers l1DataFee null there. zkSync Era
 * (324, 300) is not one: it charges pubdata inside gas, so its L1 data fee is 0 beside a gas from eth_estimateGas.
 */
export const L1_FEE_NOT_COMPUTED: ReadonlySet<number> = new Set([
  1088, // Metis Andromeda: its own OVM gas price oracle; its 2026 rule could not be confirmed (docs/api.md)
])

/** The policy for a chain: its row (else the OP-stack row when `opStack`, else the default), with the override applied. */
export function chainFeePolicy(chainId: number, override?: ChainFeePolicyOverride, opts: { opStack?: boolean } = {}): ChainFeePolicy {
  const row = Object.hasOwn(CHAIN_FEE_POLICIES, chainId) ? CHAIN_FEE_POLICIES[chainId] : opts.opStack ? opStack : undefined
  const policy = { ...(row ?? DEFAULT_FEE_POLICY), ...override }
  // an operator's bound wins over the blocks' own (a Jovian block's minimum base fee still applies)
  if (override?.maxBaseFeeRisePpm !== undefined || override?.maxBaseFeeFallPpm !== undefined) policy.boundsConfigured = true
  if (policy.minSuggestedPriorityFeeWei < policy.minPriorityFeeWei) policy.minSuggestedPriorityFeeWei = policy.minPriorityFeeWei
  return policy
}

/**
 * The fee rules an OP-stack block's extraData carries (op-geth consensus/misc/eip1559 DecodeHoloceneExtraData /
 * DecodeJovianExtraData; ethereum-optimism/specs protocol/jovian/exec-engine.md). `eip1559: null`: the chain's defaults.
 * @returns null when absent, malformed or of an unknown version: "no live parameters", never an error
 */
export function opStackExtraData(
  extraData: string | undefined,
): { eip1559: { denominator: number; elasticity: number } | null; minBaseFeeWei: bigint | null } | null {
  if (!extraData) return null
  const hex = extraData.startsWith('0x') ? extraData.slice(2) : extraData
  const version = hex.slice(0, 2)
  if (!((version === '00' && hex.length === 18) || (version === '01' && hex.length === 34))) return null
  if (!/^[0-9a-fA-F]*$/.test(hex)) return null
  const denominator = Number.parseInt(hex.slice(2, 10), 16)
  const elasticity = Number.parseInt(hex.slice(10, 18), 16)
  const eip1559 = denominator > 0 && elasticity > 0 ? { denominator, elasticity } : null
  // one of the two zero is invalid (op-geth ValidateHoloceneExtraData): no live parameters
  if (eip1559 === null && (denominator > 0 || elasticity > 0)) return null
  return { eip1559, minBaseFeeWei: version === '01' ? BigInt(`0x${hex.slice(18, 34)}`) : null }
}

/** An OP-stack block's EIP-1559 parameters (opStackExtraData); null when absent or zero (the chain's defaults apply). */
export function opStackEip1559Params(extraData: string | undefined): { denominator: number; elasticity: number } | null {
  return opStackExtraData(extraData)?.eip1559 ?? null
}

/** The policy with the live fee parameters the head block carries (OP-stack), including Jovian's minimum base fee. */
export function withLiveParams(policy: ChainFeePolicy, headExtraData: string | undefined): ChainFeePolicy {
  if (!policy.readsLiveParams) return policy
  const live = opStackExtraData(headExtraData)
  if (!live) return policy
  const out: ChainFeePolicy = { ...policy }
  if (live.minBaseFeeWei !== null && live.minBaseFeeWei > 0n) out.minBaseFeeWei = live.minBaseFeeWei
  if (live.eip1559 && !policy.boundsConfigured) {
    const { denominator, elasticity } = live.eip1559
    out.maxBaseFeeRisePpm = (PPM * BigInt(elasticity - 1) + BigInt(denominator) - 1n) / BigInt(denominator)
    out.maxBaseFeeFallPpm = (PPM + BigInt(denominator) - 1n) / BigInt(denominator)
    out.liveParamsRead = true
  }
  return out
}
