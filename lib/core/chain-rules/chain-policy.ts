import { PPM, WEI_PER_GWEI } from '../units'

/**
 * Chain fee policies as data, in the spirit of viem's `chain.fees`: what each chain's own rules say
 * about tips and base fees, one row per chain id, each citing its source. Pure: no next/*, no network.
 */

export type ChainFeePolicy = {
  /** Which rules the row follows, for docs, logs and tests. */
  family: 'ethereum' | 'op-stack' | 'polygon-pos' | 'bsc' | 'arbitrum' | 'linea' | 'avalanche' | 'default'
  /** The lowest tip the chain's validators or sequencer accept, wei: no level suggests less. */
  minPriorityFeeWei: bigint
  /**
   * The lowest tip we suggest, wei (at least minPriorityFeeWei): a chain's own oracle may floor its
   * suggestions above the bare minimum (Polygon's gas station, op-geth's oracle).
   */
  minSuggestedPriorityFeeWei: bigint
  /** Tips buy nothing on this chain (ordering is first come, first served): every level suggests 0. */
  ignoresTips: boolean
  /** The protocol's largest base fee rise from one block to the next, ppm of the previous base fee. */
  maxBaseFeeRisePpm: bigint
  /** The protocol's largest base fee fall from one block to the next, ppm. */
  maxBaseFeeFallPpm: bigint
  /**
   * Whether the two bounds above are this chain's rules, so a node's answer outside them is refused.
   * False for rows that only assume them (an unknown chain, or a chain whose base fee is not set per
   * block by EIP-1559): there the bounds plan headroom but never refuse data.
   */
  enforceBaseFeeBounds: boolean
  /**
   * How much recent history the tips come from, ms of the chain's time (more blocks when a level's
   * quantile needs more samples, fewer when the window has fewer).
   */
  tipWindowMs: number
  /** The most gas one transaction may use by the chain's rule (GET transactionCost refuses more); absent: the block's gas limit. */
  maxTransactionGas?: bigint
  /**
   * The chain's blocks carry its live EIP-1559 parameters (OP-stack's extraData since Holocene), which
   * then set the two bounds unless configuration overrides either (withLiveParams).
   */
  readsLiveParams?: boolean
  /**
   * Set by withLiveParams when the head block carried the chain's live EIP-1559 parameters: the two
   * bounds are then the chain's own rule for its next blocks (the forecast's `bound`, and no max fee
   * above it), though data outside them is still not refused (enforceBaseFeeBounds).
   */
  liveParamsRead?: boolean
  /** Set by chainFeePolicy when configuration overrides either bound: the blocks' live EIP-1559 parameters are then ignored. */
  boundsConfigured?: boolean
  /**
   * The lowest base fee the chain's rule allows, wei: set by withLiveParams from an OP-stack Jovian
   * block's extraData. No quantile or cap of the forecast goes below it.
   */
  minBaseFeeWei?: bigint
}

/** EIP-1559 as Ethereum runs it. */
const EIP1559: Pick<ChainFeePolicy, 'maxBaseFeeRisePpm' | 'maxBaseFeeFallPpm' | 'enforceBaseFeeBounds'> = {
  // go-ethereum params/protocol_params.go: DefaultBaseFeeChangeDenominator = 8, DefaultElasticityMultiplier
  // = 2; consensus/misc/eip1559/eip1559.go CalcBaseFee: a full block raises the base fee by
  // max(1, parent × (gasUsed − target) / target / 8), at most 1/8; an empty one lowers it by 1/8
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

/** Ten minutes of recent blocks for the tips: long enough for stable quantiles, short enough to follow the market. */
const TIP_WINDOW_MS = 10 * 60_000

const ethereum: ChainFeePolicy = {
  family: 'ethereum',
  minPriorityFeeWei: 0n,
  minSuggestedPriorityFeeWei: 0n,
  ignoresTips: false,
  ...EIP1559,
  tipWindowMs: TIP_WINDOW_MS,
  // EIP-7825 (Osaka: mainnet 2025-12-03, Sepolia 2025-10-14): at most 2^24 gas a transaction
  // (go-ethereum params/protocol_params.go MaxTxGas = 1 << 24)
  maxTransactionGas: 1n << 24n,
}

const opStack: ChainFeePolicy = {
  family: 'op-stack',
  minPriorityFeeWei: 0n,
  // op-geth eth/gasprice/optimism-gasprice.go: DefaultMinSuggestedPriorityFee = 1e6 wei (0.001 gwei),
  // the floor of its eth_maxPriorityFeePerGas unless the last block was at capacity
  minSuggestedPriorityFeeWei: 1_000_000n,
  ignoresTips: false,
  // OP-stack after Canyon: EIP-1559 denominator 250 (was 50), elasticity 6 (op-geth PR #165; kona-genesis
  // OP_MAINNET_EIP1559_BASE_FEE_MAX_CHANGE_DENOMINATOR_CANYON = 250), so a full block raises the base fee
  // by (6 − 1) / 250 = 2% and an empty one lowers it by 1/250. Since Holocene (OP Mainnet and Base,
  // 2025-01-09) the operator sets both and each block's extraData carries them: withLiveParams reads
  // them, and these are only the fallback. Operators change them, so they plan headroom, never refuse data.
  maxBaseFeeRisePpm: 20_000n,
  maxBaseFeeFallPpm: 4_000n,
  enforceBaseFeeBounds: false,
  tipWindowMs: TIP_WINDOW_MS,
  readsLiveParams: true,
}

const polygonPos: ChainFeePolicy = {
  family: 'polygon-pos',
  // PIP-35: validators and bor's txpool refuse tips under 25 gwei (bor params/protocol_params.go:
  // BorDefaultTxPoolPriceLimit = BorDefaultMinerGasPrice = 25 * GWei; enforced on mainnet since bor
  // v1.3.4, July 2024)
  minPriorityFeeWei: 25n * WEI_PER_GWEI,
  // Polygon's gas station floored its suggestions at 30 gwei (the current docs, "Estimate gas fees",
  // state the 25 gwei minimum): 30 keeps a margin over the validators' minimum
  minSuggestedPriorityFeeWei: 30n * WEI_PER_GWEI,
  ignoresTips: false,
  // bor consensus/misc/eip1559/eip1559.go: the denominator went 8 → 16 (Delhi) → 64 (Bhilai, PIP-58)
  // and is configurable since Lisovo (PIP-80/81), which caps each block's change at
  // MaxBaseFeeChangePercent = 5: ±5% a block bounds every configuration
  maxBaseFeeRisePpm: 50_000n,
  maxBaseFeeFallPpm: 50_000n,
  enforceBaseFeeBounds: true,
  tipWindowMs: TIP_WINDOW_MS,
}

const bsc: ChainFeePolicy = {
  family: 'bsc',
  // BSC's base fee is always 0 (bsc v1.2.9, Hertz: "the BaseFee will be zero on BSC"): the whole price
  // is the tip, and validators refuse less than their configured minimum gas price: 3 → 1 gwei (bsc
  // v1.4.16, January 2025) → 0.1 gwei (May 2025) → 0.05 gwei (late 2025; the last two from secondary
  // reports, no bnb-chain source found)
  minPriorityFeeWei: 50_000_000n,
  // a validator configuration, not a consensus rule: suggest the 0.1 gwei every validator took through
  // 2025, at a cost of 0.05 gwei × 21,000 gas = 0.00000105 BNB a transfer over the lowest
  minSuggestedPriorityFeeWei: 100_000_000n,
  ignoresTips: false,
  // a zero base fee never rises; if it ever did, plan EIP-1559's rise, never refuse data
  ...ASSUMED_EIP1559,
  tipWindowMs: TIP_WINDOW_MS,
}

const arbitrum: ChainFeePolicy = {
  family: 'arbitrum',
  minPriorityFeeWei: 0n,
  minSuggestedPriorityFeeWei: 0n,
  // Nitro's sequencer is first come, first served (docs.arbitrum.io, "Gas and fees": "Because tips do
  // not make sense in this model, they are ignored"); ArbOS 61's opt-in tip collection is off on One
  ignoresTips: true,
  // no per-block bound: the L2 base fee is the minimum (0.02 gwei since ArbOS 51, January 2026) ×
  // exp(Σ backlog_i / (window_i × target_i)) over the chain's gas targets (nitro arbos/l2pricing/model.go;
  // One's six targets, 60 Mgas/s over 9 s … 10 Mgas/s over 86,400 s, arbitrum-docs chain parameters).
  // The policy minimum planned per block: a block at the 64M effective limit (32M block + a 32M
  // transaction) adds 64M × Σ 1/(T_i·W_i) ≈ 0.157 to the exponent, ×1.170; never refuse data
  maxBaseFeeRisePpm: 170_000n,
  maxBaseFeeFallPpm: PPM / 8n,
  enforceBaseFeeBounds: false,
  tipWindowMs: TIP_WINDOW_MS,
  // ArbOS 50+: 32M gas of L2 execution a transaction (nitro arbos/l2pricing/model.go InitialPerTxGasLimitV50)
  maxTransactionGas: 32_000_000n,
}

const linea: ChainFeePolicy = {
  family: 'linea',
  minPriorityFeeWei: 0n,
  minSuggestedPriorityFeeWei: 0n,
  ignoresTips: false,
  // docs.linea.build, "Gas": "the base fee effectively stabilizes at 7 wei"; the sequencer applies a
  // minimum gas price whose value we found no source for, so the tips come from the blocks alone.
  // Plan Ethereum's rise, never refuse data
  ...ASSUMED_EIP1559,
  tipWindowMs: TIP_WINDOW_MS,
}

const avalanche: ChainFeePolicy = {
  family: 'avalanche',
  minPriorityFeeWei: 0n,
  minSuggestedPriorityFeeWei: 0n,
  ignoresTips: false,
  // ACP-176 (Fortuna, 2025-04-08): an excess-gas exponential price with a 1 wei minimum, whose
  // "maximum instantaneous price multiplier" per block is ≃ 1.12: plan Ethereum's 1/8, never refuse data
  ...ASSUMED_EIP1559,
  tipWindowMs: TIP_WINDOW_MS,
}

/**
 * An unknown chain: EIP-1559's bounds planned for (and the largest rise the window shows, when that is
 * more), never enforced; no tip floor.
 */
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
  8453: opStack, // Base
  137: polygonPos, // Polygon PoS
  56: bsc, // BNB Smart Chain
  42161: arbitrum, // Arbitrum One
  42170: arbitrum, // Arbitrum Nova
  421614: arbitrum, // Arbitrum Sepolia
  59144: linea, // Linea
  43114: avalanche, // Avalanche C-Chain
}

/** An override of some fields of a chain's row (configuration: CHAIN_FEE_POLICIES). */
export type ChainFeePolicyOverride = Partial<Omit<ChainFeePolicy, 'family'>>

/**
 * L2s that charge an L1 data fee beside gas whose rule this service does not compute: GET
 * transactionCost answers l1DataFee null there, never a guess. Scroll: L1GasPriceOracle
 * (0x5300…0002), since Galileo (December 2025) on the zstd-compressed size (scroll-tech/scroll-contracts
 * src/L2/predeploys/L1GasPriceOracle.sol); the others by their own rules, not looked up.
 */
export const L1_FEE_NOT_COMPUTED: ReadonlySet<number> = new Set([
  534352, // Scroll
  534351, // Scroll Sepolia
  5000, // Mantle: an OP-stack fork whose L1 fee is priced in MNT by its own oracle
  1088, // Metis Andromeda: L1 fee by its own OVM gas price oracle
  324, // zkSync Era: pubdata charged through gas per pubdata byte, a rule not computed here
])

/**
 * The policy for a chain: its row (or, for a chain without one, the OP-stack row when `opStack` says
 * the chain is one — viem defines it with the GasPriceOracle predeploy — else the default), with any
 * configured override applied.
 */
export function chainFeePolicy(chainId: number, override?: ChainFeePolicyOverride, opts: { opStack?: boolean } = {}): ChainFeePolicy {
  const row = Object.hasOwn(CHAIN_FEE_POLICIES, chainId) ? CHAIN_FEE_POLICIES[chainId] : opts.opStack ? opStack : undefined
  const policy = { ...(row ?? DEFAULT_FEE_POLICY), ...override }
  // an operator's bound wins over the blocks' own (a Jovian block's minimum base fee still applies)
  if (override?.maxBaseFeeRisePpm !== undefined || override?.maxBaseFeeFallPpm !== undefined) policy.boundsConfigured = true
  if (policy.minSuggestedPriorityFeeWei < policy.minPriorityFeeWei) policy.minSuggestedPriorityFeeWei = policy.minPriorityFeeWei
  return policy
}

/**
 * What an OP-stack block's extraData says of the chain's fee rules: since Holocene the chain operator
 * sets the EIP-1559 parameters (SystemConfig.setEIP1559Params) and every block carries them: version
 * byte 0 (Holocene) or 1 (Jovian), then the denominator and the elasticity as 4-byte big-endian
 * integers; version 1 appends the minimum base fee as an 8-byte big-endian integer, wei (op-geth
 * consensus/misc/eip1559: DecodeHoloceneExtraData / DecodeJovianExtraData; ethereum-optimism/specs
 * protocol/jovian/exec-engine.md, "Minimum Base Fee"). A zero denominator and elasticity mean the
 * chain's pre-Holocene defaults (`eip1559: null`). OP Mainnet and Base have changed theirs since (Base:
 * elasticity 5, denominator 100 in 2026, +4% a block), so the live values beat any table.
 * @returns null when absent, malformed or of a version this code does not know: "no live parameters",
 *   never an error
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

/**
 * An OP-stack block's EIP-1559 parameters, from its extraData (opStackExtraData); null when absent,
 * malformed, unknown or zero (the chain's defaults apply).
 */
export function opStackEip1559Params(extraData: string | undefined): { denominator: number; elasticity: number } | null {
  return opStackExtraData(extraData)?.eip1559 ?? null
}

/**
 * The policy with the chain's live fee parameters where its blocks carry them (OP-stack): a full
 * block raises the base fee by (elasticity − 1) / denominator, an empty one lowers it by
 * 1 / denominator; since Jovian the base fee never goes below the minimum the block carries
 * (`minBaseFeeWei`), the forecast's and the caps' lower bound.
 */
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
