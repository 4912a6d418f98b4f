/**
 * Blob (EIP-4844) fork parameters per chain as data; the fork is the one active at the head's timestamp
 * (go-ethereum consensus/misc/eip4844/eip4844.go latestBlobConfig). Pure.
 * Sources: the EIPs (ethereum/EIPs at f767a1e), go-ethereum params/config.go (at 02b73d4), bnb-chain/bsc params/config.go (at 3cf9043).
 */

import type { ChainFeePolicy } from './chain-policy'

/** Blob gas one blob uses: EIP-4844 GAS_PER_BLOB = 2^17 (go-ethereum params.BlobTxBlobGasPerBlob). */
export const GAS_PER_BLOB = 131_072n

/** The lowest blob base fee, wei: EIP-4844 MIN_BASE_FEE_PER_BLOB_GAS (go-ethereum params.BlobTxMinBlobGasprice). */
export const MIN_BASE_FEE_PER_BLOB_GAS = 1n

/** EIP-7918 BLOB_BASE_COST = 2^13: a blob's reserve price is this much execution gas (go-ethereum params.BlobBaseCost). */
export const BLOB_BASE_COST = 8_192n

/** A fork's blob parameters (EIP-7840's blobSchedule entry). */
export type BlobParams = {
  /** Blobs per block the fee aims at (target_blob_gas = target × GAS_PER_BLOB). */
  target: number
  /** Most blobs a block may carry. */
  max: number
  /** BLOB_BASE_FEE_UPDATE_FRACTION: the blob base fee is fake_exponential(1, excess_blob_gas, updateFraction) wei. */
  updateFraction: bigint
}

/** One fork of a chain's blob schedule. */
export type BlobFork = {
  name: string
  /** Activation, unix seconds: a block whose timestamp is at or after it runs this fork. */
  activatesAt: number
  params: BlobParams
  /** EIP-7918's reserve-price rule in calc_excess_blob_gas (Osaka and later on Ethereum). */
  reservePrice: boolean
}

/** Forks in order of activation, oldest first. */
export type BlobSchedule = readonly BlobFork[]

// EIP-4844; go-ethereum DefaultCancunBlobConfig
const CANCUN: BlobParams = { target: 3, max: 6, updateFraction: 3_338_477n }
// EIP-7691; go-ethereum DefaultPragueBlobConfig. Osaka keeps them.
const PRAGUE: BlobParams = { target: 6, max: 9, updateFraction: 5_007_716n }
// EIP-7892 blob-parameter-only forks (EIP-7607); go-ethereum DefaultBPO1BlobConfig, DefaultBPO2BlobConfig
const BPO1: BlobParams = { target: 10, max: 15, updateFraction: 8_346_193n }
const BPO2: BlobParams = { target: 14, max: 21, updateFraction: 11_684_671n }

/** Ethereum's forks at the given activation times (Cancun, Prague, Osaka, BPO1, BPO2). */
function ethereumSchedule(t: { cancun: number; prague: number; osaka: number; bpo1: number; bpo2: number }): BlobSchedule {
  return [
    { name: 'Cancun', activatesAt: t.cancun, params: CANCUN, reservePrice: false },
    { name: 'Prague', activatesAt: t.prague, params: PRAGUE, reservePrice: false },
    // Osaka brings EIP-7918 and keeps Prague's numbers (go-ethereum latestBlobConfig, CalcExcessBlobGas)
    { name: 'Osaka', activatesAt: t.osaka, params: PRAGUE, reservePrice: true },
    { name: 'BPO1', activatesAt: t.bpo1, params: BPO1, reservePrice: true },
    { name: 'BPO2', activatesAt: t.bpo2, params: BPO2, reservePrice: true },
  ]
}

/**
 * The blob schedules of the chains known to carry blobs. Activation times: EIP-7569, EIP-7600, EIP-7607,
 * as go-ethereum's MainnetChainConfig and SepoliaChainConfig.
 */
export const BLOB_SCHEDULES: Readonly<Record<number, BlobSchedule>> = {
  1: ethereumSchedule({ cancun: 1_710_338_135, prague: 1_746_612_311, osaka: 1_764_798_551, bpo1: 1_765_290_071, bpo2: 1_767_747_671 }),
  11155111: ethereumSchedule({
    cancun: 1_706_655_072,
    prague: 1_741_159_776,
    osaka: 1_760_427_360,
    bpo1: 1_761_017_184,
    bpo2: 1_761_607_008,
  }),
  // Hoodi (go-ethereum HoodiChainConfig; EIP-7607)
  560048: ethereumSchedule({ cancun: 0, prague: 1_742_999_832, osaka: 1_761_677_592, bpo1: 1_762_365_720, bpo2: 1_762_955_544 }),
  // BNB Smart Chain (BEP-336): bsc params/config.go keeps Cancun's blob numbers in later forks, skips the BPO
  // forks and EIP-7918 (eip4844.go CalcExcessBlobGas); BEP-657's blob blocks only loosen the per-block bound
  56: [{ name: 'Cancun', activatesAt: 1_718_863_500, params: CANCUN, reservePrice: false }],
}

/** Chains that carry no blobs, whatever their nodes' eth_feeHistory says: GET blobFees answers 400 there. */
export const NO_BLOB_CHAINS: Readonly<Record<number, string>> = {
  // op-geth refuses type-3 transactions (core/txpool/validation.go ValidateTransaction, eth/api_backend.go SendTx)
  10: 'OP Mainnet',
  8453: 'Base',
  // bor eth/backend.go: "Blob pool is removed from Subpool for Bor" (its pool is the legacy pool alone)
  137: 'Polygon PoS',
  // Arbitrum, Linea, Avalanche: no type-3 transactions (the chains' docs)
  42161: 'Arbitrum One',
  59144: 'Linea',
  43114: 'Avalanche C-Chain',
  // NO_BLOB_FAMILIES' sources below
  204: 'opBNB',
  143: 'Monad',
  146: 'Sonic',
}

/**
 * The schedule of a chain no table names (a devnet): anvil 1.7.1's default, Osaka's blob params (foundry 4072e48
 * crates/evm/hardforks spec_id_from_ethereum_hardfork; alloy-hardforks 0.4.7; alloy-eips 2.0.1 BlobParams::osaka()).
 */
export const DEVNET_BLOB_SCHEDULE: BlobSchedule = [{ name: 'Osaka (anvil default)', activatesAt: 0, params: PRAGUE, reservePrice: true }]

/** The fork of `schedule` active at a block of that timestamp (unix seconds); undefined before the first. */
export function blobForkAt(schedule: BlobSchedule, timestamp: number): BlobFork | undefined {
  let active: BlobFork | undefined
  for (const fork of schedule) if (fork.activatesAt <= timestamp) active = fork
  return active
}

/** Fee families whose nodes refuse type-3 transactions: no blobs on their chains, one found by its predeploys too. */
export const NO_BLOB_FAMILIES: ReadonlySet<ChainFeePolicy['family']> = new Set<ChainFeePolicy['family']>([
  // ethereum-optimism/op-geth core/txpool/validation.go ValidateTransaction: IsOptimism() refuses BlobTxType
  // (ErrTxTypeNotSupported); bnb-chain/op-geth @ 1b995c36 (opBNB) the same, core/txpool/validation.go:85
  'op-stack',
  'opbnb',
  // the rows of NO_BLOB_CHAINS above
  'polygon-pos',
  'arbitrum',
  'linea',
  'avalanche',
  // category-labs/monad-bft @ 085b87ca monad-eth-block-policy/src/validation.rs static_validate_transaction: an EIP-4844
  // transaction is UnsupportedTransactionType
  'monad',
  // 0xsoniclabs/sonic @ 021825ca evmcore/tx_validation.go: a type-3 transaction with any blob hash is ErrNonEmptyBlobTx
  'sonic',
])

/** A chain's blob schedule (`family`: its policy's); `null`: it carries none; `unknown`: its node decides (./blob-fees.ts). */
export function blobScheduleOf(chainId: number, family?: ChainFeePolicy['family']): BlobSchedule | null | 'unknown' {
  if (Object.hasOwn(BLOB_SCHEDULES, chainId)) return BLOB_SCHEDULES[chainId] ?? null
  if (Object.hasOwn(NO_BLOB_CHAINS, chainId)) return null
  if (family !== undefined && NO_BLOB_FAMILIES.has(family)) return null
  return 'unknown'
}

/** Whether a chain takes blob (type-3) transactions: all but NO_BLOB_CHAINS and NO_BLOB_FAMILIES' (an unnamed devnet may). */
export function takesBlobTransactions(chainId: number, family?: ChainFeePolicy['family']): boolean {
  return blobScheduleOf(chainId, family) !== null
}
