import { z } from 'zod'

/**
 * The bodies of Blocknative's Gas Platform endpoints as this service answers them (lib/blocknative): fees in gwei
 * as JSON numbers, as its clients (`@web3-onboard/gas` 2.2.1 dist/types.d.ts) read them.
 */

/** A gwei amount as a JSON number: at most 9 decimals (1 wei), never negative. */
export const GweiNumberSchema = z.number().nonnegative().meta({
  description: 'gwei as a JSON number, at most 9 decimals (1 wei = 0.000000001), never NaN or null.',
})

export const EstimatedPriceSchema = z.object({
  confidence: z.number().int().min(1).max(99).meta({
    description:
      'Percent: a transaction sent with these fees at the head is included in the next block in this share of cases (docs/estimator.md, "Confidence levels").',
  }),
  price: GweiNumberSchema.meta({ description: "A legacy (type 0) transaction's gas price: baseFeePerGas plus maxPriorityFeePerGas." }),
  maxPriorityFeePerGas: GweiNumberSchema,
  maxFeePerGas: GweiNumberSchema.meta({
    description: 'At least one full block’s rise over baseFeePerGas (by the chain’s rule) plus maxPriorityFeePerGas.',
  }),
})

export const BlockPriceSchema = z.object({
  blockNumber: z.number().int().nonnegative().meta({ description: 'The next block: the head (X-Block-Number) + 1.' }),
  estimatedTransactionCount: z.number().int().nonnegative().meta({
    description: 'How many transactions the head block holds: the service sees no mempool, so the next block is taken to be like the last.',
  }),
  baseFeePerGas: GweiNumberSchema.meta({ description: "The next block's base fee: suggestedGasFees' estimatedBaseFee for the same head." }),
  blobBaseFeePerGas: GweiNumberSchema.optional().meta({ description: "The next block's blob base fee, on chains with blobs only." }),
  estimatedPrices: z.array(EstimatedPriceSchema).meta({ description: 'One per asked confidence level, in the order asked.' }),
})

export const EstimatedBaseFeeSchema = z.object({
  confidence: z.union([z.literal(99), z.literal(50)]).meta({ description: "99: the forecast's p99; 50: its p50." }),
  baseFee: GweiNumberSchema,
  blobBaseFee: GweiNumberSchema.optional().meta({
    description: 'GET /gasprices/basefee-estimates on chains with blobs: the blob forecast’s.',
  }),
})

export const EstimatedBaseFeesSchema = z
  .array(z.record(z.string().regex(/^pending\+[1-5]$/), z.array(EstimatedBaseFeeSchema)))
  .length(5)
  .meta({ description: 'pending+1 … pending+5 in order (pending is blockPrices[0].blockNumber): confidence 99, then 50.' })

const header = {
  system: z.string().meta({ description: 'The chain’s system, as GET /chains names it (e.g. ethereum).' }),
  network: z.string().meta({ description: 'The chain’s network, as GET /chains names it (e.g. main).' }),
  unit: z.literal('gwei'),
  currentBlockNumber: z.number().int().nonnegative().meta({ description: 'The head block the answer is made at (X-Block-Number).' }),
  msSinceLastBlock: z
    .number()
    .int()
    .nonnegative()
    .meta({ description: 'ms from the head block’s timestamp to the answer (0 if the head is stamped later).' }),
}

export const BlockPricesSchema = z.object({
  ...header,
  maxPrice: GweiNumberSchema.meta({
    description: 'The highest effective gas price the newest block with tip data paid (its base fee + its largest tip).',
  }),
  blockPrices: z.array(BlockPriceSchema).length(1),
  estimatedBaseFees: EstimatedBaseFeesSchema.optional().meta({ description: 'With withBaseFees=true only.' }),
})

export const BaseFeeEstimatesSchema = z.object({
  ...header,
  baseFeePerGas: GweiNumberSchema.meta({ description: "The next block's base fee." }),
  blobBaseFeePerGas: GweiNumberSchema.optional().meta({ description: "The next block's blob base fee, on chains with blobs only." }),
  estimatedBaseFees: EstimatedBaseFeesSchema,
})

export const BlocknativeChainSchema = z.object({
  chainId: z.number().int().positive(),
  system: z.string(),
  network: z.string(),
  label: z.string().meta({ description: "The chain's name." }),
  arch: z.literal('evm'),
  features: z.array(z.string()).meta({ description: 'blockprices, basefee-estimates, and blobs where the chain has them.' }),
})

export const BlocknativeChainsSchema = z.array(BlocknativeChainSchema)
