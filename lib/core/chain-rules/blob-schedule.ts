/**
 * Blob (EIP-4844) fork parameters as data: per chain, which blob parameters each fork brought and when
 * it activated, and the chains that carry no blobs at all. Pure: no next/*, no network. The blob fees
 * (./blob-fees.ts) take the fork active at the window's head block, by its timestamp, as clients do
 * (go-ethereum consensus/misc/eip4844/eip4844.go latestBlobConfig: the newest fork whose time has come).
 *
 * Sources: the EIPs (ethereum/EIPs at f767a1e) and go-ethereum's params/config.go (at 02b73d4), which
 * agree on every number below; bsc's params/config.go (bnb-chain/bsc at 3cf9043) for BNB Smart Chain.
 */

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
  /**
   * EIP-7918's reserve-price rule in calc_excess_blob_gas (Osaka and later on Ethereum): while a blob
   * costs less than BLOB_BASE_COST execution gas, the excess does not fall; its largest rise a block is unchanged.
   */
  reservePrice: boolean
}

/** Forks in order of activation, oldest first. */
export type BlobSchedule = readonly BlobFork[]

// EIP-4844: TARGET_BLOB_GAS_PER_BLOCK = 393216 (3 blobs), MAX_BLOB_GAS_PER_BLOCK = 786432 (6 blobs),
// BLOB_BASE_FEE_UPDATE_FRACTION = 3338477; go-ethereum DefaultCancunBlobConfig
const CANCUN: BlobParams = { target: 3, max: 6, updateFraction: 3_338_477n }
// EIP-7691: TARGET_BLOBS_PER_BLOCK_ELECTRA = 6, MAX_BLOBS_PER_BLOCK_ELECTRA = 9,
// BLOB_BASE_FEE_UPDATE_FRACTION_PRAGUE = 5007716; go-ethereum DefaultPragueBlobConfig. Osaka keeps them.
const PRAGUE: BlobParams = { target: 6, max: 9, updateFraction: 5_007_716n }
// EIP-7892 blob-parameter-only forks, scheduled with Fusaka (EIP-7607); their values: go-ethereum
// DefaultBPO1BlobConfig and DefaultBPO2BlobConfig
const BPO1: BlobParams = { target: 10, max: 15, updateFraction: 8_346_193n }
const BPO2: BlobParams = { target: 14, max: 21, updateFraction: 11_684_671n }

/** Ethereum's forks at the given activation times (Cancun, Prague, Osaka, BPO1, BPO2). */
function ethereumSchedule(t: { cancun: number; prague: number; osaka: number; bpo1: number; bpo2: number }): BlobSchedule {
  return [
    { name: 'Cancun', activatesAt: t.cancun, params: CANCUN, reservePrice: false },
    { name: 'Prague', activatesAt: t.prague, params: PRAGUE, reservePrice: false },
    // Osaka (Fusaka) brings EIP-7918 and keeps Prague's numbers (go-ethereum latestBlobConfig has no
    // Osaka entry: Prague's applies; CalcExcessBlobGas applies EIP-7918 from IsOsaka)
    { name: 'Osaka', activatesAt: t.osaka, params: PRAGUE, reservePrice: true },
    { name: 'BPO1', activatesAt: t.bpo1, params: BPO1, reservePrice: true },
    { name: 'BPO2', activatesAt: t.bpo2, params: BPO2, reservePrice: true },
  ]
}

/**
 * The blob schedules of the chains we know to carry blobs, by chain id. Activation times: EIP-7569
 * (Cancun), EIP-7600 (Prague), EIP-7607 (Osaka, BPO1, BPO2), the same as go-ethereum's
 * MainnetChainConfig and SepoliaChainConfig.
 */
export const BLOB_SCHEDULES: Readonly<Record<number, BlobSchedule>> = {
  // Ethereum: Cancun 2024-03-13, Prague 2025-05-07, Osaka 2025-12-03, BPO1 2025-12-09, BPO2 2026-01-07
  1: ethereumSchedule({ cancun: 1_710_338_135, prague: 1_746_612_311, osaka: 1_764_798_551, bpo1: 1_765_290_071, bpo2: 1_767_747_671 }),
  // Sepolia: Cancun 2024-01-30, Prague 2025-03-05, Osaka 2025-10-14, BPO1 2025-10-21, BPO2 2025-10-27
  11155111: ethereumSchedule({
    cancun: 1_706_655_072,
    prague: 1_741_159_776,
    osaka: 1_760_427_360,
    bpo1: 1_761_017_184,
    bpo2: 1_761_607_008,
  }),
  // Hoodi (the staking testnet): Cancun from genesis, Prague 2025-03-26, Osaka 2025-10-28, BPO1
  // 2025-11-05, BPO2 2025-11-12 (go-ethereum HoodiChainConfig; EIP-7607 for the last three)
  560048: ethereumSchedule({ cancun: 0, prague: 1_742_999_832, osaka: 1_761_677_592, bpo1: 1_762_365_720, bpo2: 1_762_955_544 }),
  // BNB Smart Chain carries blobs since BEP-336 (Cancun with Haber, 2024-06-20 06:05 UTC). bsc
  // params/config.go: its Prague (2025-03-20) and Osaka (2026-04-28) keep Cancun's blob numbers
  // (DefaultPragueBlobConfigBSC = DefaultOsakaBlobConfigBSC = DefaultCancunBlobConfig) and it skips the
  // BPO forks; EIP-7918 is not applied there (eip4844.go CalcExcessBlobGas: `IsOsaka && IsNotInBSC`).
  // Since Mendel (with Osaka) only every 5th block may carry blobs and the excess changes only after
  // them (BEP-657): the per-block bound below then holds with room to spare.
  56: [{ name: 'Cancun', activatesAt: 1_718_863_500, params: CANCUN, reservePrice: false }],
}

/**
 * Chains that carry no blobs, whatever their nodes' eth_feeHistory says (several report blob fields
 * of 0 or 1 wei): GET blobFees answers 400 there.
 */
export const NO_BLOB_CHAINS: Readonly<Record<number, string>> = {
  // op-geth refuses type-3 transactions on OP-stack chains (core/txpool/validation.go ValidateTransaction
  // and eth/api_backend.go SendTx: `IsOptimism() && tx.Type() == types.BlobTxType` → ErrTxTypeNotSupported)
  10: 'OP Mainnet',
  8453: 'Base',
  // bor eth/backend.go: "Blob pool is removed from Subpool for Bor" (its pool is the legacy pool alone)
  137: 'Polygon PoS',
  // Arbitrum, Linea, Avalanche: their nodes take no type-3 transactions (the chains' docs; not checked
  // in their sources here)
  42161: 'Arbitrum One',
  59144: 'Linea',
  43114: 'Avalanche C-Chain',
}

/**
 * The schedule of a chain none of the tables names (a devnet): the one anvil runs by default, since
 * anvil is what such a chain usually is. anvil 1.7.1 (foundry 4072e48) starts at
 * EthereumHardfork::default(), which alloy-hardforks 0.4.7 makes Bpo1, run as SpecId::OSAKA
 * (foundry crates/evm/hardforks spec_id_from_ethereum_hardfork); for Osaka its backend takes
 * BlobParams::osaka() (alloy-eips 2.0.1: target 6, max 9, fraction 5007716, EIP-7918 on), which is
 * what its eth_config reports and the most blobs a block may hold there. (Its fee manager prices blobs
 * with BlobParams::bpo1() on chain ids alloy-hardforks does not know, as 31337: target 10, so on
 * such a devnet no block can raise the blob base fee. The largest rise a block of either is the same
 * factor, e^0.0785, so the caps hold for both.)
 */
export const DEVNET_BLOB_SCHEDULE: BlobSchedule = [{ name: 'Osaka (anvil default)', activatesAt: 0, params: PRAGUE, reservePrice: true }]

/** The fork of `schedule` active at a block of that timestamp (unix seconds); undefined before the first. */
export function blobForkAt(schedule: BlobSchedule, timestamp: number): BlobFork | undefined {
  let active: BlobFork | undefined
  for (const fork of schedule) if (fork.activatesAt <= timestamp) active = fork
  return active
}

/**
 * What a chain's blobs are: its schedule from the tables, `null` for a chain that carries none, or
 * `unknown` for a chain the tables do not name (its node's eth_feeHistory decides: ./blob-fees.ts).
 */
export function blobScheduleOf(chainId: number): BlobSchedule | null | 'unknown' {
  if (Object.hasOwn(BLOB_SCHEDULES, chainId)) return BLOB_SCHEDULES[chainId] ?? null
  if (Object.hasOwn(NO_BLOB_CHAINS, chainId)) return null
  return 'unknown'
}

/**
 * Whether a chain takes blob (type-3) transactions, as far as the tables know: a chain of
 * NO_BLOB_CHAINS does not; one of BLOB_SCHEDULES does; a chain they do not name (a devnet) is allowed
 * them (GET replacementFees only prices a replacement; GET blobFees asks its node). The one table
 * behind both endpoints.
 */
export function takesBlobTransactions(chainId: number): boolean {
  return blobScheduleOf(chainId) !== null
}
