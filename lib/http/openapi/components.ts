/**
 * The components of the OpenAPI document (lib/http/openapi.ts) and the references to them: the body schemas
 * (the zod schemas through z.toJSONSchema), the response headers, the shared error answers, the chainId parameter
 * and the security schemes.
 */
import { z } from 'zod'
import {
  AccuracyReportSchema,
  BaseFeeForecastSchema,
  ForecastHorizonSchema,
  BlobReplacementSchema,
  Eip1559ReplacementSchema,
  BlobFeeLevelSchema,
  BlobFeesSchema,
  TransactionCostLevelSchema,
  TransactionCostSchema,
  GasPricesSchema,
  LegacyReplacementSchema,
  ReplacementFeesSchema,
  BaseFeeHistorySchema,
  BaseFeePercentileSchema,
  BusyThresholdSchema,
  ChainReadinessSchema,
  ErrorBodySchema,
  FeesEventSchema,
  GweiSchema,
  HealthSchema,
  LevelAccuracySchema,
  NotReadyBodySchema,
  ReadySchema,
  SuggestedGasFeesSchema,
  SupportedChainNamesSchema,
  SupportedNetworksSchema,
  TrendSchema,
  UrgencyLevelSchema,
} from '../../core/contract/schemas'
import {
  BaseFeeEstimatesSchema,
  BlockPriceSchema,
  BlockPricesSchema,
  BlocknativeChainSchema,
  BlocknativeChainsSchema,
  EstimatedBaseFeeSchema,
  EstimatedPriceSchema,
  GweiNumberSchema,
} from '../../core/contract/blocknative-schemas'
import { ChainErrorEventSchema, ChainFeesEventSchema, MultiChainSuggestedGasFeesSchema } from '../../core/contract/multi-chain-schemas'
import { REASON_PHRASES } from '../reason-phrases'

/** The zod schemas published under components/schemas, by name. */
const SCHEMAS = {
  Gwei: GweiSchema,
  Trend: TrendSchema,
  UrgencyLevel: UrgencyLevelSchema,
  SuggestedGasFees: SuggestedGasFeesSchema,
  BusyThreshold: BusyThresholdSchema,
  BaseFeePercentile: BaseFeePercentileSchema,
  BaseFeeHistory: BaseFeeHistorySchema,
  ForecastHorizon: ForecastHorizonSchema,
  BaseFeeForecast: BaseFeeForecastSchema,
  FeesEvent: FeesEventSchema,
  MultiChainSuggestedGasFees: MultiChainSuggestedGasFeesSchema,
  ChainFeesEvent: ChainFeesEventSchema,
  ChainErrorEvent: ChainErrorEventSchema,
  LevelAccuracy: LevelAccuracySchema,
  AccuracyReport: AccuracyReportSchema,
  GasPrices: GasPricesSchema,
  Eip1559Replacement: Eip1559ReplacementSchema,
  BlobReplacement: BlobReplacementSchema,
  LegacyReplacement: LegacyReplacementSchema,
  ReplacementFees: ReplacementFeesSchema,
  BlobFeeLevel: BlobFeeLevelSchema,
  BlobFees: BlobFeesSchema,
  TransactionCostLevel: TransactionCostLevelSchema,
  TransactionCost: TransactionCostSchema,
  SupportedNetworks: SupportedNetworksSchema,
  SupportedChainNames: SupportedChainNamesSchema,
  ErrorBody: ErrorBodySchema,
  Health: HealthSchema,
  ChainReadiness: ChainReadinessSchema,
  Ready: ReadySchema,
  NotReadyBody: NotReadyBodySchema,
  GweiNumber: GweiNumberSchema,
  EstimatedPrice: EstimatedPriceSchema,
  BlockPrice: BlockPriceSchema,
  EstimatedBaseFee: EstimatedBaseFeeSchema,
  BlockPrices: BlockPricesSchema,
  BaseFeeEstimates: BaseFeeEstimatesSchema,
  BlocknativeChain: BlocknativeChainSchema,
  BlocknativeChains: BlocknativeChainsSchema,
} satisfies Record<string, z.ZodType>

/** The name of a body schema under components/schemas. */
export type SchemaName = keyof typeof SCHEMAS

/** A piece of the document: JSON-plain. */
export type Json = Record<string, unknown>

/** A reference to a component: `{ $ref: '#/components/<kind>/<name>' }`. */
export const ref = (kind: 'schemas' | 'headers' | 'responses' | 'parameters', name: string) => ({ $ref: `#/components/${kind}/${name}` })
/** A reference to a body schema of SCHEMAS. */
export const schemaRef = (name: SchemaName) => ref('schemas', name)

/** The components/schemas: one JSON Schema per zod schema, shared sub-schemas as $refs. */
function componentSchemas(): Record<string, Json> {
  const registry = z.registry<{ id: string }>()
  for (const [id, schema] of Object.entries(SCHEMAS)) registry.add(schema, { id })
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}` })
  // the document's own dialect is 2020-12 (OpenAPI 3.1's default): no per-schema $schema; and a
  // fragment is no $id in 2020-12 (the $refs resolve against the document)
  return Object.fromEntries(
    Object.entries(schemas).map(([id, s]) => {
      const { $schema: _schema, $id: _id, ...rest } = s as Json
      return [id, rest]
    }),
  )
}

/** Response headers. Header values are strings on the wire; the schemas say what they parse as. */
const HEADERS: Record<string, Json> = {
  'X-Block-Number': {
    description: 'The latest block of the window the answer was computed from.',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-Block-Timestamp': { description: "That block's timestamp, unix seconds.", schema: { type: 'integer', minimum: 0 } },
  'X-Block-Interval-Ms': {
    description: "The chain's block interval measured from block timestamps, milliseconds.",
    schema: { type: 'integer', minimum: 0 },
  },
  'X-Chain-Id': { description: 'The chain answered for.', schema: { type: 'integer', minimum: 1 } },
  Age: { description: 'Seconds since the data was read from the node.', schema: { type: 'integer', minimum: 0 } },
  'X-Data-Stale': {
    description: 'true when the data is not current (a read of the node failed since, it is three cache periods old, or the head stopped).',
    schema: { type: 'boolean' },
  },
  'X-Chain-Freshness': {
    description:
      "A multi-chain answer's chains, in its order, as an RFC 8941 list: `<chainId>;block=<n>;age=<s>;interval=<ms>;stale=?0|?1`, or `<chainId>;status=<code>` for a chain that answered an error; an id of more than 15 digits is a quoted String.",
    schema: { type: 'string' },
  },
  Warning: { description: 'Only on stale data: `110 - "Response is Stale"`.', schema: { type: 'string' } },
  'Cache-Control': {
    description: '`private, max-age=<seconds until the next block is due>` (`no-store` when stale).',
    schema: { type: 'string' },
  },
  'RateLimit-Limit': {
    description: "The API key's quota per window (IETF RateLimit header fields); absent for an unlimited key.",
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Policy': { description: '`<limit>;w=<window seconds>`.', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
  'WWW-Authenticate': { description: 'The authentication challenge.', schema: { type: 'string' } },
  Allow: { description: 'The methods the path answers: `GET, HEAD, OPTIONS`.', schema: { type: 'string' } },
}

/** A response's headers, by name, as references to HEADERS: `required` always sent, `optional` sometimes. */
export const headers = (required: string[], optional: string[] = []) =>
  Object.fromEntries([
    ...required.map((h) => [h, { ...ref('headers', h), required: true }]),
    ...optional.map((h) => [h, ref('headers', h)]),
  ])
/** The IETF RateLimit header fields an API key's answers carry (lib/http/guard.ts). */
export const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy']
/** The headers of an answer from a chain's window (lib/http/freshness-headers.ts). */
export const FRESHNESS_HEADERS = [
  'X-Block-Number',
  'X-Block-Timestamp',
  'X-Block-Interval-Ms',
  'X-Chain-Id',
  'Age',
  'X-Data-Stale',
  'Cache-Control',
]

/** A JSON body of `schema`, as a response's content. */
export const json = (schema: Json) => ({ 'application/json': { schema } })

/** An error answer: the error body, and the headers that status always carries. */
const errorResponse = (status: number, description: string, required: string[] = [], optional: string[] = []) => ({
  description: `${REASON_PHRASES[status]}: ${description}`,
  headers: headers(required, optional),
  content: json(schemaRef('ErrorBody')),
})

/** Shared error answers, by status. */
const RESPONSES = {
  BadRequest: errorResponse(
    400,
    'the chain id is not a canonical positive decimal integer or the chain is not served; for the EIP-1559 endpoints (all but gasPrices), the chain has no EIP-1559 fee market; for blobFees, the chain carries no blobs; or the path holds a malformed percent-escape.',
  ),
  Unauthorized: errorResponse(401, 'no, malformed or wrong credentials.', ['WWW-Authenticate']),
  MethodNotAllowed: errorResponse(405, 'the API is read-only.', ['Allow']),
  TooManyRequests: errorResponse(
    429,
    "the API key's rate limit (RATE_LIMIT, RATE_LIMITS), its open streams (STREAM_MAX_PER_KEY), or too many failed authentications from the client's address (AUTH_FAILURE_LIMIT).",
    ['Retry-After'],
    RATE_LIMIT_HEADERS,
  ),
  BadGateway: errorResponse(502, "the chain's node answered something unusable."),
  ServiceUnavailable: errorResponse(
    503,
    'no fee data can be read now (the node fails and nothing fresh enough is held), or the service is misconfigured.',
    ['Retry-After'],
  ),
  InternalServerError: errorResponse(500, 'an unexpected error (logged; the answer has no detail).'),
}

const STATUS: Record<keyof typeof RESPONSES, number> = {
  BadRequest: 400,
  Unauthorized: 401,
  MethodNotAllowed: 405,
  TooManyRequests: 429,
  BadGateway: 502,
  ServiceUnavailable: 503,
  InternalServerError: 500,
}
/** The shared error answers of `names`, by status code, as references to RESPONSES. */
export const errors = (...names: (keyof typeof RESPONSES)[]) =>
  Object.fromEntries(names.map((n) => [String(STATUS[n]), ref('responses', n)]))

/** The path parameter of /networks/{chainId}/…: a canonical decimal chain id (lib/http/chain-id.ts). */
const CHAIN_ID: Json = {
  name: 'chainId',
  in: 'path',
  required: true,
  description:
    'The chain id: a positive decimal integer without sign, leading zero, exponent or hex, at most a JavaScript safe integer (e.g. 1, 137, 8453). GET /v1/supportedNetworks lists the chains served.',
  schema: { type: 'string', pattern: '^[1-9][0-9]{0,15}$' },
  example: '1',
}

/** components: the objects the paths refer to with $ref. */
export function components(): Json {
  return {
    schemas: componentSchemas(),
    parameters: { chainId: CHAIN_ID },
    headers: HEADERS,
    responses: RESPONSES,
    securitySchemes: {
      basicAuth: {
        type: 'http',
        scheme: 'basic',
        description: 'User name = API key, password = API key secret.',
      },
      metricsToken: { type: 'http', scheme: 'bearer', description: 'The METRICS_TOKEN of the deployment (GET /metrics only).' },
    },
  }
}
