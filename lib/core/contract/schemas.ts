import { z } from 'zod'
import { PendingPiecesSchema, PieceAccuracySchema } from './pending-schema'
import { BLOB_FORECAST_HORIZONS } from '../fee-math/blob-forecast'
import { FORECAST_HORIZONS } from '../fee-math/forecast'

/** A fee in decimal gwei: no exponent, at most 9 fractional digits, no trailing zeros, "0" for zero. */
export const GweiSchema = z
  .string()
  .regex(/^(0|[1-9]\d*)(\.\d{0,8}[1-9])?$/, 'a decimal gwei string')
  .meta({
    description: 'A fee in gwei as an exact decimal string: at most 9 fractional digits, no exponent, no trailing zeros, "0" for zero.',
  })

export const TrendSchema = z.enum(['up', 'down']).meta({ description: '"up" when rising, otherwise "down" (a flat fee is "down").' })

export const UrgencyLevelSchema = z.object({
  suggestedMaxPriorityFeePerGas: GweiSchema,
  suggestedMaxFeePerGas: GweiSchema,
  /** milliseconds */
  minWaitTimeEstimate: z.number().int().nonnegative().meta({ description: 'milliseconds' }),
  /** milliseconds */
  maxWaitTimeEstimate: z.number().int().nonnegative().meta({ description: 'milliseconds' }),
})

const RangeSchema = z.tuple([GweiSchema, GweiSchema])

export const SuggestedGasFeesSchema = z.object({
  low: UrgencyLevelSchema,
  medium: UrgencyLevelSchema,
  high: UrgencyLevelSchema,
  estimatedBaseFee: GweiSchema,
  networkCongestion: z.number().min(0).max(1).meta({
    description: 'Mid-rank of estimatedBaseFee among the last 500 base fees, in [0, 1]; above 0.9 exactly when it is above busyThreshold.',
  }),
  latestPriorityFeeRange: RangeSchema,
  historicalPriorityFeeRange: RangeSchema,
  historicalBaseFeeRange: RangeSchema,
  priorityFeeTrend: TrendSchema,
  baseFeeTrend: TrendSchema,
  pending: PendingPiecesSchema.optional(),
})

export const BusyThresholdSchema = z.object({ busyThreshold: GweiSchema })
export const BaseFeePercentileSchema = z.object({ baseFeePercentile: GweiSchema })
export const BaseFeeHistorySchema = z.array(GweiSchema).meta({ description: 'The base fees of the last 500 blocks, oldest first.' })

/** One block ahead in GET /networks/{chainId}/baseFeeForecast: the base fee of block head + `blocks`, in gwei. */
export const ForecastHorizonSchema = z.object({
  blocks: z
    .number()
    .int()
    .min(1)
    .max(FORECAST_HORIZONS)
    .meta({ description: 'k: this is the base fee of block head + k (k = 1 is the next block).' }),
  p50: GweiSchema.meta({ description: 'Median forecast of the base fee of block head + k (gwei).' }),
  p90: GweiSchema.meta({ description: '90th-percentile forecast (gwei): the base fee stays at or under it with probability 0.9.' }),
  p99: GweiSchema.meta({ description: '99th-percentile forecast (gwei).' }),
  bound: GweiSchema.nullable().meta({
    description:
      "The protocol's largest base fee of block head + k: k − 1 largest rises from estimatedBaseFee (k from the head's on Monad, whose nodes repeat it as the next) (gwei); null where the chain enforces no per-block bound.",
  }),
})

/**
 * GET /networks/{chainId}/baseFeeForecast: the base fee of each of the next FORECAST_HORIZONS blocks
 * as quantiles and the protocol's bound (lib/core/fee-math/forecast.ts), gwei. k = 1 is exact (the next base
 * fee; not on Monad); p50 ≤ p90 ≤ p99 ≤ bound at every horizon.
 */
export const BaseFeeForecastSchema = z.object({
  blockNumber: z.number().int().nonnegative().meta({ description: 'The head block the forecast is made at (X-Block-Number).' }),
  estimatedBaseFee: GweiSchema.meta({
    description:
      "The base fee of the next block (head + 1) as the node reports it, exact (Monad's nodes repeat the head's): suggestedGasFees.estimatedBaseFee.",
  }),
  horizons: z
    .array(ForecastHorizonSchema)
    .length(FORECAST_HORIZONS)
    .meta({ description: `Blocks head + 1 … head + ${FORECAST_HORIZONS}, in order.` }),
})

/**
 * GET /networks/{chainId}/gasPrices: one legacy (type-0) gas price per level, decimal gwei, the
 * Etherscan-style field names MetaMask's GasFeeController reads from its legacyAPIEndpoint.
 */
export const GasPricesSchema = z.object({
  SafeGasPrice: GweiSchema,
  ProposeGasPrice: GweiSchema,
  FastGasPrice: GweiSchema,
})

/** One replacement of an EIP-1559 (type-2) transaction, decimal gwei. */
export const Eip1559ReplacementSchema = z.object({ maxFeePerGas: GweiSchema, maxPriorityFeePerGas: GweiSchema })
/** One replacement of a blob (type-3) transaction, decimal gwei. */
export const BlobReplacementSchema = Eip1559ReplacementSchema.extend({ maxFeePerBlobGas: GweiSchema })
/** One replacement of a legacy (type-0) transaction, decimal gwei. */
export const LegacyReplacementSchema = z.object({ gasPrice: GweiSchema })

const replacementLevels = <T extends z.ZodType>(fees: T) => z.object({ minimum: fees, low: fees, medium: fees, high: fees })

/**
 * GET /networks/{chainId}/replacementFees: the lowest replacement every common pool accepts and one per
 * level, with the fields of the query's transaction (EIP-1559, blob or legacy).
 */
export const ReplacementFeesSchema = z
  // the blob shape first: zod's objects drop unknown keys, so the EIP-1559 shape would also take a blob body
  .union([
    replacementLevels(BlobReplacementSchema),
    replacementLevels(Eip1559ReplacementSchema),
    replacementLevels(LegacyReplacementSchema),
  ])
  .meta({
    description:
      "minimum: each fee of the pending transaction × 110% (blob transactions × 200%), rounded up to the wei and at least 1 wei above it; low/medium/high: the larger of minimum and the level's current suggestion, field by field, the tip never above the max fee.",
  })
/** One level of GET /networks/{chainId}/blobFees. */
export const BlobFeeLevelSchema = z.object({
  suggestedMaxFeePerBlobGas: GweiSchema.meta({
    description:
      "maxFeePerBlobGas for a blob transaction (gwei per blob gas): the blob base fee every block of the level's reach (the answer's age and its wait) stays under with the level's promise (90%, 95%, 99%), sized by the forecast; at least one full block's rise from the next blob base fee, at most the protocol's largest over those blocks.",
  }),
})

/**
 * GET /networks/{chainId}/blobFees: the next block's blob base fee and each level's maxFeePerBlobGas
 * (lib/core/fee-math/blob-fees.ts), gwei; the window's blob fullness; the fork's blob target and maximum.
 */
export const BlobFeesSchema = z.object({
  blockNumber: z.number().int().nonnegative().meta({ description: 'The head block the answer is for (X-Block-Number).' }),
  estimatedBlobBaseFee: GweiSchema.meta({
    description: "The blob base fee of the next block (gwei per blob gas), as the node reports it (eth_feeHistory's baseFeePerBlobGas).",
  }),
  low: BlobFeeLevelSchema,
  medium: BlobFeeLevelSchema,
  high: BlobFeeLevelSchema,
  blobGasUsedRatio: z.array(z.number().min(0).max(2)).meta({
    description: "Each block's blob gas used ÷ its maximum blob gas, the window's blocks oldest first (eth_feeHistory's blobGasUsedRatio).",
  }),
  blobTarget: z
    .number()
    .int()
    .positive()
    .meta({ description: 'Blobs per block the blob base fee aims at, in the fork active at the head block.' }),
  blobMax: z.number().int().positive().meta({ description: 'Most blobs a block may carry, in the fork active at the head block.' }),
  forecast: z
    .object({
      method: z.enum(['window', 'bound']).meta({
        description:
          "'window': the quantiles replay the window's blob counts by the protocol's rule; 'bound': the window is too short, every quantile is the bound.",
      }),
      horizons: z
        .array(
          z.object({
            blocks: z
              .number()
              .int()
              .min(1)
              .max(BLOB_FORECAST_HORIZONS)
              .meta({ description: 'k: this is the blob base fee of block head + k (k = 1 is the next block, exact).' }),
            p50: GweiSchema.meta({ description: 'Median forecast of the blob base fee of block head + k (gwei per blob gas).' }),
            p90: GweiSchema.meta({ description: '90th-percentile forecast (gwei per blob gas).' }),
            p99: GweiSchema.meta({ description: '99th-percentile forecast (gwei per blob gas).' }),
            bound: GweiSchema.meta({
              description:
                "The protocol's largest blob base fee of block head + k: every block from the next one at the most blobs (gwei).",
            }),
          }),
        )
        .length(BLOB_FORECAST_HORIZONS)
        .meta({ description: `Blocks head + 1 … head + ${BLOB_FORECAST_HORIZONS}, in order; p50 ≤ p90 ≤ p99 ≤ bound.` }),
    })
    .meta({
      description:
        'The blob base fee forecast, the same shape as baseFeeForecast: the next excess blob gas is exact, later blocks follow EIP-4844 (and EIP-7918 where active) from the recent blob counts, replayed.',
    }),
})

/** One level of GET transactionCost: amounts in gwei of the chain's native token (not per gas), and the fees per gas it assumes. */
export const TransactionCostLevelSchema = z.object({
  fee: GweiSchema.meta({
    description:
      'What the transaction will most likely cost: gas × min(the next base fee + maxPriorityFeePerGas, maxFeePerGas) + l1DataFee + operatorFee, gwei of the native token.',
  }),
  maxFee: GweiSchema.meta({
    description:
      "What a wallet must hold for it: gas × maxFeePerGas + the L1 data fee's cap over the level's wait + operatorFee, gwei of the native token.",
  }),
  maxPriorityFeePerGas: GweiSchema.meta({
    description:
      'The tip per gas fee and maxFee assume, to send with the transaction: the level\'s suggestedMaxPriorityFeePerGas, on Linea at least priorityFeeFloor; "0" where tips buy nothing (Arbitrum, zkSync Era); a chain without EIP-1559: the level\'s gas price.',
  }),
  maxFeePerGas: GweiSchema.meta({
    description:
      "The max fee per gas maxFee assumes: the level's suggestedMaxFeePerGas, raised by what the tip was raised; a chain without EIP-1559: the level's gas price.",
  }),
  minWaitTimeEstimate: z.number().int().nonnegative().meta({
    description:
      "The level's shortest wait, ms; on a flashblocks chain for a transaction of this gas limit: a limit beyond the room the next pieces leave waits for a later piece.",
  }),
  maxWaitTimeEstimate: z.number().int().nonnegative().meta({ description: "The level's promised wait, ms (as minWaitTimeEstimate)." }),
})

/** GET /networks/{chainId}/transactionCost: a transaction's whole cost, per level. */
export const TransactionCostSchema = z.object({
  blockNumber: z.number().int().nonnegative().meta({ description: 'The head block the answer is for (X-Block-Number).' }),
  gas: z.number().int().positive().meta({ description: 'The gas limit asked about.' }),
  txBytes: z.number().int().nonnegative().meta({
    description:
      "The unsigned serialized transaction's size the L1 fee is for, bytes: the query's txBytes, the tx's size, or 51 (a plain transfer).",
  }),
  nativeToken: z.string().nullable().meta({
    description:
      'The token gas and every amount of the answer are paid in (viem\'s symbol: "ETH", "MNT" on Mantle); null for a chain viem does not know.',
  }),
  l1DataFee: GweiSchema.nullable().meta({
    description:
      "What the chain charges beside gas for the transaction's L1 data, gwei of the native token: OP-stack GasPriceOracle.getL1FeeUpperBound(txBytes) (raised to FastLZ's worst case where larger) or the fee of tx signed, as the node charges it; Mantle the same × tokenRatio (MNT); Scroll Galileo's fee on the signed size (compressed as the node does with tx); Arbitrum the L1 price per byte × the signed size; \"0\" on chains with none beside gas (L1s, Linea, whose data cost rides in the tip, zkSync Era, whose pubdata is gas); null on an L2 whose L1 fee the service does not compute (the fees then leave it out).",
  }),
  l1DataFeeBasis: z.enum(['exact', 'upperBound']).nullable().meta({
    description:
      '"exact": l1DataFee is what the chain charges, as its oracle computes it, never below (OP-stack, Mantle and Scroll with tx; chains with none); "upperBound": it charges at most that (txBytes, Arbitrum, Scroll with tx where the zstd binding is missing); null with l1DataFee.',
  }),
  operatorFee: GweiSchema.nullable().meta({
    description:
      'The operator fee for `gas`, gwei of the native token: OP-stack (Isthmus and Jovian rules), Mantle (in MNT); "0" elsewhere; null where unknown.',
  }),
  priorityFeeFloor: GweiSchema.nullable().meta({
    description:
      "Linea: the lowest tip per gas its sequencer takes for this transaction (linea_estimateGas's, from the head's extraData and the compressed-size bound of txBytes); every level's tip is at least this. null elsewhere, and on a Linea head without extraData v1.",
  }),
  gasCharged: z.literal('limit').optional().meta({
    description:
      '"limit" on a chain that charges the whole gas limit, not the gas used (Monad): `gas` is then the limit the wallet signs, and fee is what it pays, so keep the limit tight. Absent elsewhere.',
  }),
  low: TransactionCostLevelSchema,
  medium: TransactionCostLevelSchema,
  high: TransactionCostLevelSchema,
})

/** GET /v1/supportedNetworks: the chains served; OP-stack chains (whose L1 data fee a client adds itself) under partialSupport.optimism. */
export const SupportedNetworksSchema = z.object({
  fullSupport: z.array(z.number().int().positive()),
  partialSupport: z.object({ optimism: z.array(z.number().int().positive()) }),
})

/** GET /v1/supportedChainNames: chain id (decimal string) → name. */
export const SupportedChainNamesSchema = z.record(z.string().regex(/^[1-9]\d*$/), z.string())

/** The JSON error body every non-2xx answer carries (the Infura API's shape). */
export const ErrorBodySchema = z
  .object({
    statusCode: z.number().int().meta({ description: 'The HTTP status, repeated.' }),
    error: z.string().meta({ description: 'The status\'s reason phrase (RFC 9110), e.g. "Bad Request".' }),
    message: z.string().meta({ description: 'What went wrong, for a person.' }),
  })
  .meta({ description: 'The JSON body of every error answer (the Infura Gas API shape).' })

/** GET /healthz: the process serves. */
export const HealthSchema = z.object({ status: z.literal('ok') })

/** One configured chain's readiness in GET /readyz (lib/http/readiness.ts ChainReadiness). */
export const ChainReadinessSchema = z.object({
  chainId: z.number().int().positive(),
  ready: z.boolean(),
  reason: z.enum(['never read', 'stale']).optional(),
  /** seconds */
  ageSeconds: z.number().int().nonnegative().optional().meta({ description: 'seconds since the window held was read' }),
  block: z.number().int().nonnegative().optional(),
  error: z.string().optional().meta({ description: 'the error class of the last read, when it failed' }),
})

/** GET /readyz, 200: every configured chain has a window the feed would serve. */
export const ReadySchema = z.object({ status: z.literal('ready'), chains: z.array(ChainReadinessSchema) })

/** GET /readyz, 503: the error body with each chain's state. */
export const NotReadyBodySchema = ErrorBodySchema.extend({ chains: z.array(ChainReadinessSchema) })

export type ReadyBody = z.infer<typeof ReadySchema>
export type NotReadyBody = z.infer<typeof NotReadyBodySchema>

export type SuggestedGasFees = z.infer<typeof SuggestedGasFeesSchema>
export type BusyThreshold = z.infer<typeof BusyThresholdSchema>
export type BaseFeePercentile = z.infer<typeof BaseFeePercentileSchema>
export type BaseFeeHistory = z.infer<typeof BaseFeeHistorySchema>
export type GasPrices = z.infer<typeof GasPricesSchema>
export type ForecastHorizonBody = z.infer<typeof ForecastHorizonSchema>
export type BaseFeeForecastBody = z.infer<typeof BaseFeeForecastSchema>
export type BlobFeesBody = z.infer<typeof BlobFeesSchema>
export type TransactionCostBody = z.infer<typeof TransactionCostSchema>
export type ErrorBody = z.infer<typeof ErrorBodySchema>
export type SupportedNetworks = z.infer<typeof SupportedNetworksSchema>
export type ReplacementFeesBody = z.infer<typeof ReplacementFeesSchema>
export type SupportedChainNames = z.infer<typeof SupportedChainNamesSchema>

/**
 * The data of the stream's `fees` event (GET /networks/{chainId}/stream): the block, whether it is
 * stale, and the five fee endpoints' bodies for that same block.
 */
export const FeesEventSchema = z.object({
  blockNumber: z.number().int().nonnegative(),
  stale: z.boolean(),
  /** Only on flashblocks chains: the pending block and the piece this event is for (at most one event per piece). */
  pending: z.object({ blockNumber: z.number().int().nonnegative(), piece: z.number().int().nonnegative() }).optional(),
  suggestedGasFees: SuggestedGasFeesSchema,
  busyThreshold: BusyThresholdSchema,
  baseFeePercentile: BaseFeePercentileSchema,
  baseFeeHistory: BaseFeeHistorySchema,
  baseFeeForecast: BaseFeeForecastSchema,
  /** Only on chains with blobs: GET blobFees' body for the same block. */
  blobFees: BlobFeesSchema.optional().meta({ description: "Only on chains with blobs: GET blobFees' body for the same block." }),
})

const ShareSchema = z.number().min(0).max(1)

/** One level's record in GET /networks/{chainId}/accuracy (lib/core/evaluation/accuracy.ts LevelAccuracy). */
export const LevelAccuracySchema = z.object({
  trials: z.number().int().nonnegative(),
  /** blocks */
  promisedBlocks: z.number().nonnegative(),
  /** null while the level has no trials */
  includedWithinPromise: ShareSchema.nullable(),
  targetInclusion: ShareSchema,
  /** blocks */
  medianWaitBlocks: z.number().nonnegative().nullable(),
  medianOverpayment: z.number().nullable(),
})

/** The body of GET /networks/{chainId}/accuracy (lib/core/evaluation/accuracy.ts AccuracyReport). */
export const AccuracyReportSchema = z.object({
  chainId: z.number().int().positive(),
  judge: z.object({ name: z.string(), description: z.string() }),
  window: z.object({ oldestBlock: z.number().int().nonnegative(), headBlock: z.number().int().nonnegative() }),
  judgedBlocks: z.object({ from: z.number().int().nonnegative(), to: z.number().int().nonnegative() }).nullable(),
  /** seconds */
  spanSeconds: z.number().nonnegative(),
  /** milliseconds */
  blockIntervalMs: z.number().positive(),
  levels: z.object({ low: LevelAccuracySchema, medium: LevelAccuracySchema, high: LevelAccuracySchema }),
  pieces: PieceAccuracySchema.nullable().optional(),
})

export type FeesEvent = z.infer<typeof FeesEventSchema>
export type AccuracyReportBody = z.infer<typeof AccuracyReportSchema>
