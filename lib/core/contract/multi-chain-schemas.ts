import { z } from 'zod'
import { ErrorBodySchema, FeesEventSchema, SuggestedGasFeesSchema } from './schemas'

/** A chain id as an object key: its canonical decimal. */
const ChainIdKeySchema = z.string().regex(/^[1-9][0-9]{0,15}$/)
const ChainIdSchema = z.number().int().positive().meta({ description: 'The chain the event is about.' })

/**
 * The body of GET /v1/suggestedGasFees: per chain asked (decimal id, in the order asked), the body its GET
 * /networks/{chainId}/suggestedGasFees would serve, or the JSON error body that route would answer.
 */
export const MultiChainSuggestedGasFeesSchema = z
  .record(ChainIdKeySchema, z.union([SuggestedGasFeesSchema, ErrorBodySchema]))
  .meta({ description: "Each chain's suggestedGasFees body, or its error body (statusCode, error, message), by decimal chain id." })

/** The data of a multi-chain stream's `fees` event (GET /v1/stream): the chain's per-chain `fees` data, with its chainId. */
export const ChainFeesEventSchema = FeesEventSchema.extend({ chainId: ChainIdSchema })

/** The data of a multi-chain stream's `error` event: the chain's error body, with its chainId. */
export const ChainErrorEventSchema = ErrorBodySchema.extend({ chainId: ChainIdSchema })

export type MultiChainSuggestedGasFees = z.infer<typeof MultiChainSuggestedGasFeesSchema>
