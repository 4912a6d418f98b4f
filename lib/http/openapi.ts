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
} from '../core/contract/schemas'
import {
  BaseFeeEstimatesSchema,
  BlockPriceSchema,
  BlockPricesSchema,
  BlocknativeChainSchema,
  BlocknativeChainsSchema,
  EstimatedBaseFeeSchema,
  EstimatedPriceSchema,
  GweiNumberSchema,
} from '../core/contract/blocknative-schemas'
import { REASON_PHRASES } from './reason-phrases'
import { REPLACEMENT_QUERY_PARAMETERS } from './replacement-query'

/**
 * GET /openapi.json: the OpenAPI 3.1 document of the API, generated from the zod schemas the handlers
 * and pages use (lib/core/contract/schemas.ts, through z.toJSONSchema with the JSON Schema 2020-12 target,
 * which is OpenAPI 3.1's schema dialect), never written by hand. Pure: no configuration, no request;
 * the same document on every instance. The statuses and headers below are the ones
 * lib/http/error-answers.ts (toErrorResponse), lib/http/freshness-headers.ts, lib/http/stream.ts, lib/http/health.ts,
 * lib/http/metrics.ts and middleware.ts answer with; the contract test checks every answer of the
 * integration suite against this document (tests/support/contract.ts).
 */

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

export type SchemaName = keyof typeof SCHEMAS

type Json = Record<string, unknown>

const ref = (kind: 'schemas' | 'headers' | 'responses' | 'parameters', name: string) => ({ $ref: `#/components/${kind}/${name}` })
const schemaRef = (name: SchemaName) => ref('schemas', name)

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

const headers = (required: string[], optional: string[] = []) =>
  Object.fromEntries([
    ...required.map((h) => [h, { ...ref('headers', h), required: true }]),
    ...optional.map((h) => [h, ref('headers', h)]),
  ])
const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy']
const FRESHNESS_HEADERS = [
  'X-Block-Number',
  'X-Block-Timestamp',
  'X-Block-Interval-Ms',
  'X-Chain-Id',
  'Age',
  'X-Data-Stale',
  'Cache-Control',
]

const json = (schema: Json) => ({ 'application/json': { schema } })

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
const errors = (...names: (keyof typeof RESPONSES)[]) => Object.fromEntries(names.map((n) => [String(STATUS[n]), ref('responses', n)]))

/** Every status an authenticated API handler can answer besides 200 (middleware and handler). */
const API_ERRORS = ['Unauthorized', 'TooManyRequests', 'ServiceUnavailable', 'InternalServerError'] as const
const CHAIN_ERRORS = ['BadRequest', ...API_ERRORS, 'BadGateway'] as const

/** OPTIONS and the write methods of a read-only route (lib/http/routes.ts readOnlyRoute). */
function readOnlyMethods(tag: string): Json {
  const write = {
    tags: [tag],
    summary: 'Not allowed: the API is read-only.',
    responses: { '405': ref('responses', 'MethodNotAllowed'), ...errors('Unauthorized', 'TooManyRequests', 'ServiceUnavailable') },
  }
  return {
    options: {
      tags: [tag],
      summary: 'The methods this path answers.',
      responses: { '204': { description: 'No Content, with Allow.', headers: headers(['Allow']) }, ...errors(...API_ERRORS) },
    },
    post: write,
    put: write,
    patch: write,
    delete: write,
  }
}

const CHAIN_ID: Json = {
  name: 'chainId',
  in: 'path',
  required: true,
  description:
    'The chain id: a positive decimal integer without sign, leading zero, exponent or hex, at most a JavaScript safe integer (e.g. 1, 137, 8453). GET /v1/supportedNetworks lists the chains served.',
  schema: { type: 'string', pattern: '^[1-9][0-9]{0,15}$' },
  example: '1',
}

/** A GET answered from a chain's window: 200 with the freshness headers and the schema's body, the chain errors; OPTIONS and the writes. */
function windowAnswer(tag: string, operationId: string, summary: string, description: string, body: SchemaName): Json {
  return {
    get: {
      operationId,
      tags: [tag],
      summary,
      description,
      responses: {
        '200': {
          description: 'OK',
          headers: headers(FRESHNESS_HEADERS, ['Warning', ...RATE_LIMIT_HEADERS]),
          content: json(schemaRef(body)),
        },
        ...errors(...CHAIN_ERRORS),
      },
    },
    ...readOnlyMethods(tag),
  }
}

/** One chain's JSON endpoint: its window's answer under /networks/{chainId}/. */
function chainEndpoint(operationId: string, summary: string, description: string, body: SchemaName): Json {
  return { parameters: [ref('parameters', 'chainId')], ...windowAnswer('fees', operationId, summary, description, body) }
}

/** The query of GET replacementFees: the pending transaction's fees (lib/http/replacement-query.ts). */
const REPLACEMENT_QUERY: Record<(typeof REPLACEMENT_QUERY_PARAMETERS)[number], string> = {
  maxFeePerGas: "The pending EIP-1559 (or blob) transaction's max fee per gas, gwei. With maxPriorityFeePerGas.",
  maxPriorityFeePerGas: 'Its max priority fee per gas, gwei: not above maxFeePerGas. With maxFeePerGas.',
  maxFeePerBlobGas: "A blob transaction's max fee per blob gas, gwei, with the two above; 400 on a chain without blob transactions.",
  gasPrice: "A legacy transaction's gas price, gwei: alone, never with the three above.",
}

const REPLACEMENT_DESCRIPTION =
  "The fees that replace a pending transaction (a speed-up, or a cancel: a zero-value transaction to oneself with the same nonce). `minimum`: each of the query's fees × 110% (a blob transaction's × 200%), rounded up to the wei and at least 1 wei above the old fee, the lowest replacement that geth, reth, erigon, bor, op-geth and anvil accept; `low`/`medium`/`high`: the larger of `minimum` and the level's current suggestion (suggestedGasFees; gasPrices for a legacy transaction), field by field, the tip never above the max fee; a blob fee is the minimum's at every level. The fields are the query's: maxFeePerGas and maxPriorityFeePerGas (plus maxFeePerBlobGas), or gasPrice. 400 names the parameter: missing, unknown or repeated, gasPrice with EIP-1559 fields, a value that is negative, has an exponent, more than 9 decimals or is past 2^256 − 1 wei, a tip above the max fee, maxFeePerBlobGas on a chain without blob transactions."

const TRANSACTION_COST_DESCRIPTION =
  "A transaction's whole cost per level, in gwei of the chain's native token (not per gas): `fee` = gas × (the next base fee + the level's tip) + l1DataFee + operatorFee, what it will most likely cost; `maxFee` = gas × the level's suggestedMaxFeePerGas + the L1 data fee's cap over the level's wait + operatorFee, what a wallet must hold. l1DataFee on OP-stack chains (Fjord and later) is exactly what GasPriceOracle.getL1FeeUpperBound(txBytes) returns at the head, or getL1Fee(tx) with `tx`; operatorFee by the chain's fork (Isthmus, Jovian); on Arbitrum the L1 component is ArbGasInfo's price per L1 calldata byte × the signed size (an upper bound: the chain charges the Brotli-compressed size); \"0\" on chains with no L1 fee; null on an L2 whose L1 fee the service does not compute. txBytes defaults to 51 (a plain EIP-1559 transfer, unsigned). Same window as suggestedGasFees: no upstream call of its own. 400 names the parameter: gas missing, repeated, not a decimal integer, under 21,000 or above the chain's per-transaction cap (2^24 on Ethereum since Osaka, 32,000,000 on Arbitrum, the head's gas limit elsewhere); txBytes over 131,072 (128 KiB); tx not an unsigned serialized transaction; both tx and txBytes; an unknown parameter."

const TRANSACTION_COST_QUERY = [
  {
    name: 'gas',
    in: 'query',
    required: true,
    description:
      "The transaction's gas limit (on Arbitrum its L2 execution gas, without the L1 component): a decimal integer of at least 21,000.",
    schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
    example: '21000',
  },
  {
    name: 'txBytes',
    in: 'query',
    required: false,
    description: "The unsigned serialized transaction's size, bytes (1–131,072); default 51, a plain transfer. Not with tx.",
    schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
    example: '113',
  },
  {
    name: 'tx',
    in: 'query',
    required: false,
    description:
      'The unsigned serialized transaction, 0x hex (viem serializeTransaction without a signature): the L1 fee is then exact. Not with txBytes.',
    schema: { type: 'string', pattern: '^0x([0-9a-fA-F]{2})+$' },
  },
]

/** The chain of a Blocknative endpoint's query (lib/blocknative/query.ts). */
const BLOCKNATIVE_CHAIN_QUERY: Json[] = [
  {
    name: 'chainid',
    in: 'query',
    required: false,
    description: 'The chain id, a positive decimal integer (default 1, as Blocknative). `chainId` is accepted too.',
    schema: { type: 'string', pattern: '^[1-9][0-9]{0,15}$' },
    example: '1',
  },
  {
    name: 'system',
    in: 'query',
    required: false,
    description: 'With `network`, the chain as GET /chains names it (e.g. system=ethereum&network=main), instead of chainid.',
    schema: { type: 'string' },
  },
  { name: 'network', in: 'query', required: false, description: 'With `system`.', schema: { type: 'string' } },
]

const BLOCK_PRICES_DESCRIPTION =
  'Blocknative\'s Gas Platform `blockprices`: the next block (head + 1) priced at each confidence level, fees in gwei as JSON numbers. Confidence c: a transaction sent with these fees at the head is included in the next block in c% of cases, by the levels\' own model with the wait set to one block (docs/estimator.md, "Confidence levels"). Same window, staleness headers, rate limits and errors as the other endpoints; no upstream call of its own. 400 names the parameter: a confidence level that is not an integer from 1 to 99 or more than 5 of them, chainid not a positive decimal integer, withBaseFees not true or false, system/network naming no served chain; an unserved chain id is answered as everywhere.'

/** A Blocknative endpoint (lib/blocknative/routes.ts): its window's answer, the chain named by the query. */
function blocknativeEndpoint(operationId: string, summary: string, description: string, body: SchemaName, query: Json[]): Json {
  return withQuery(windowAnswer('blocknative', operationId, summary, description, body), query)
}

/** An answer about the service rather than one chain (cacheable for a minute), and its errors. */
function catalogPath(operationId: string, tag: string, summary: string, body: SchemaName, description?: string): Json {
  return {
    get: {
      operationId,
      tags: [tag],
      summary,
      ...(description ? { description } : {}),
      responses: {
        '200': {
          description: 'OK',
          headers: headers(['Cache-Control'], RATE_LIMIT_HEADERS),
          content: json(schemaRef(body)),
        },
        ...errors(...API_ERRORS),
      },
    },
    ...readOnlyMethods(tag),
  }
}

/** A path's GET with query parameters besides the path's own. */
function withQuery(path: Json, query: Json[]): Json {
  const get = path.get as Json
  return { ...path, get: { ...get, parameters: query } }
}

const STREAM_DESCRIPTION = `Server-Sent Events (text/event-stream). At once and on every new block, \`event: fees\` with \`id: <block number>\` and \`data:\` one line of JSON, a FeesEvent (the five fee endpoints' bodies for that block: suggestedGasFees, busyThreshold, baseFeePercentile, baseFeeHistory, baseFeeForecast). While the chain's node fails, one \`event: error\` per failure streak whose \`data:\` is an ErrorBody (502 or 503 as the REST endpoints would answer). \`: keep-alive\` comments every STREAM_HEARTBEAT_SECONDS; the stream opens with \`retry: 1000\` and ends after STREAM_MAX_SECONDS (reconnect then; an EventSource does so itself). The events' schemas are in the media type's \`x-sse-events\` (OpenAPI 3.1 has no keyword for a stream's items). Errors found before the stream opens (bad or unsupported chain, auth, limits) are plain JSON answers.`

function document(): Json {
  return {
    openapi: '3.1.1',
    info: {
      title: 'Gas API',
      version: '1',
      description:
        'EIP-1559 fee suggestions for EVM chains, compatible with the Infura/MetaMask Gas API. Fees are decimal gwei strings, waits milliseconds. Every path answers HEAD as GET without a body. Generated from the zod schemas of the service (lib/core/contract/schemas.ts); docs/api.md explains every number.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    security: [{ basicAuth: [] }],
    tags: [
      { name: 'fees', description: "One chain's fees, computed from its last 500 blocks." },
      { name: 'service', description: 'What the service answers for.' },
      {
        name: 'blocknative',
        description: "Blocknative's Gas Platform dialect (its endpoints shut down on 2026-06-19): the same answers, gwei as JSON numbers.",
      },
      { name: 'operations', description: 'Probes, metrics and this document.' },
    ],
    paths: {
      '/networks/{chainId}/suggestedGasFees': chainEndpoint(
        'getSuggestedGasFees',
        'Fee suggestions for the low, medium and high urgency levels',
        'Max priority fee, max fee and wait range per level, the next base fee, congestion, tip and base-fee ranges and trends.',
        'SuggestedGasFees',
      ),
      '/networks/{chainId}/busyThreshold': chainEndpoint(
        'getBusyThreshold',
        'The 90th-percentile base fee of the last 500 blocks',
        'Nearest-rank 90th percentile of baseFeeHistory.',
        'BusyThreshold',
      ),
      '/networks/{chainId}/baseFeePercentile': chainEndpoint(
        'getBaseFeePercentile',
        'The 50th-percentile base fee of the last 500 blocks',
        'Nearest-rank 50th percentile of baseFeeHistory.',
        'BaseFeePercentile',
      ),
      '/networks/{chainId}/baseFeeHistory': chainEndpoint(
        'getBaseFeeHistory',
        'The base fees of the last 500 blocks, oldest first',
        'Exactly 500 entries once the chain has 500 blocks.',
        'BaseFeeHistory',
      ),
      '/networks/{chainId}/baseFeeForecast': chainEndpoint(
        'getBaseFeeForecast',
        'The base fee of each of the next 10 blocks: p50, p90, p99 and the protocol bound',
        "Blocks head + 1 … head + 10 (head = X-Block-Number). k = 1 is the next block, known exactly (every quantile equals estimatedBaseFee). p50 ≤ p90 ≤ p99 ≤ bound; bound is the protocol's largest base fee (k − 1 largest rises from the next base fee), null on chains that enforce none. With under 64 base-fee steps in the window, or a base fee of 0, every quantile is that bound (the assumed one where the chain enforces none). The model: docs/estimator.md.",
        'BaseFeeForecast',
      ),
      '/networks/{chainId}/gasPrices': chainEndpoint(
        'getGasPrices',
        'Legacy gas prices (SafeGasPrice, ProposeGasPrice, FastGasPrice)',
        "One gasPrice per level for a type-0 transaction, as MetaMask's GasFeeController reads from its legacyAPIEndpoint. Answers on every chain, including chains without EIP-1559 (where the other fee endpoints answer 400); 503 while the chain's recent blocks hold no priced transaction.",
        'GasPrices',
      ),
      '/networks/{chainId}/replacementFees': withQuery(
        chainEndpoint(
          'getReplacementFees',
          'The fees that replace a pending transaction (speed-up or cancel)',
          REPLACEMENT_DESCRIPTION,
          'ReplacementFees',
        ),
        Object.entries(REPLACEMENT_QUERY).map(([name, description]) => ({
          name,
          in: 'query',
          required: false,
          description,
          schema: { type: 'string', pattern: '^(0|[1-9][0-9]*)(\\.[0-9]{1,9})?$' },
          example: name === 'maxPriorityFeePerGas' ? '0.5' : '12.5',
        })),
      ),
      '/networks/{chainId}/transactionCost': withQuery(
        chainEndpoint(
          'getTransactionCost',
          "A transaction's whole cost per level, the L1 data fee and operator fee of L2s included",
          TRANSACTION_COST_DESCRIPTION,
          'TransactionCost',
        ),
        TRANSACTION_COST_QUERY,
      ),
      '/networks/{chainId}/blobFees': chainEndpoint(
        'getBlobFees',
        'Blob fees (EIP-4844): the next blob base fee and a maxFeePerBlobGas per level',
        "On chains with blobs (400 elsewhere). estimatedBlobBaseFee is the next block's blob base fee as the node reports it; each level's suggestedMaxFeePerBlobGas is the blob base fee every block the level's promise reaches (the answer's age and its wait) stays under with the level's promise, sized by forecast (the blob base fee of the next 10 blocks as p50, p90, p99 and the protocol bound), at least one full block's rise, at most the protocol's bound; blobTarget and blobMax are the fork's active at the head; low ≤ medium ≤ high. Same window as the other endpoints. docs/api.md gives the forks and their sources.",
        'BlobFees',
      ),
      '/networks/{chainId}/accuracy': chainEndpoint(
        'getAccuracy',
        "The service's own accuracy over the window it serves",
        'Per level: the share of its suggestions included within the promised wait, the median wait and overpayment, judged as `npm run backtest` judges.',
        'AccuracyReport',
      ),
      '/networks/{chainId}/stream': {
        parameters: [ref('parameters', 'chainId')],
        get: {
          operationId: 'getStream',
          tags: ['fees'],
          summary: 'The five fee answers, pushed on every new block (Server-Sent Events)',
          description: STREAM_DESCRIPTION,
          responses: {
            '200': {
              description: 'OK: the event stream.',
              headers: headers(['X-Chain-Id', 'Cache-Control'], RATE_LIMIT_HEADERS),
              content: {
                'text/event-stream': {
                  schema: { type: 'string', description: 'A stream of `fees` and `error` events (see the operation description).' },
                  'x-sse-events': { fees: schemaRef('FeesEvent'), error: schemaRef('ErrorBody') },
                },
              },
            },
            ...errors('BadRequest', ...API_ERRORS),
          },
        },
        ...readOnlyMethods('fees'),
      },
      '/v1/supportedNetworks': catalogPath(
        'getSupportedNetworks',
        'service',
        'The chains served',
        'SupportedNetworks',
        'OP-stack chains, whose L1 data fee a client adds itself, are under partialSupport.optimism.',
      ),
      '/v1/supportedChainNames': catalogPath(
        'getSupportedChainNames',
        'service',
        'Chain id (decimal string) → name, for every chain served',
        'SupportedChainNames',
      ),
      '/gasprices/blockprices': blocknativeEndpoint(
        'getBlockPrices',
        "The next block's fees at each confidence level (Blocknative's blockprices)",
        BLOCK_PRICES_DESCRIPTION,
        'BlockPrices',
        [
          ...BLOCKNATIVE_CHAIN_QUERY,
          {
            name: 'confidenceLevels',
            in: 'query',
            required: false,
            description:
              'Repeated or comma-separated, at most 5, each an integer from 1 to 99, answered in the order asked; default 99,95,90,80,70.',
            schema: { type: 'string', pattern: '^[1-9][0-9]?(,[1-9][0-9]?){0,4}$' },
            example: '99,90,70',
          },
          {
            name: 'withBaseFees',
            in: 'query',
            required: false,
            description: 'true adds estimatedBaseFees (pending+1 … pending+5 at confidence 99 and 50); default false.',
            schema: { type: 'string', enum: ['true', 'false'] },
          },
        ],
      ),
      '/gasprices/basefee-estimates': blocknativeEndpoint(
        'getBaseFeeEstimates',
        "The base fee (and blob base fee) of the next blocks (Blocknative's basefee-estimates)",
        "The next block's base fee and, on chains with blobs, blob base fee; estimatedBaseFees pending+1 … pending+5 at confidence 99 and 50 from the base-fee forecast (GET baseFeeForecast's p99 and p50) and the blob forecast (GET blobFees'). Same window and errors as the other endpoints.",
        'BaseFeeEstimates',
        BLOCKNATIVE_CHAIN_QUERY,
      ),
      '/chains': catalogPath('getChains', 'blocknative', "Every served chain as Blocknative's Chains API lists it", 'BlocknativeChains'),
      '/healthz': {
        get: {
          operationId: 'getHealth',
          tags: ['operations'],
          summary: 'Liveness: the process serves',
          description: 'No credentials, no upstream call, no configuration read.',
          security: [],
          responses: { '200': { description: 'OK', content: json(schemaRef('Health')) } },
        },
      },
      '/readyz': {
        get: {
          operationId: 'getReadiness',
          tags: ['operations'],
          summary: 'Readiness: every configured chain has data the service would serve',
          description: 'No credentials by default; with READYZ_AUTH=basic an API key is needed.',
          security: [{}, { basicAuth: [] }],
          responses: {
            '200': { description: 'OK', content: json(schemaRef('Ready')) },
            '401': ref('responses', 'Unauthorized'),
            '429': ref('responses', 'TooManyRequests'),
            '500': ref('responses', 'InternalServerError'),
            '503': {
              description: 'Service Unavailable: not ready (the body names each chain and why), or misconfigured.',
              headers: headers(['Retry-After']),
              content: json({ anyOf: [schemaRef('NotReadyBody'), schemaRef('ErrorBody')] }),
            },
          },
        },
      },
      '/metrics': {
        get: {
          operationId: 'getMetrics',
          tags: ['operations'],
          summary: 'Prometheus metrics',
          description: 'Behind its own bearer token (METRICS_TOKEN); API keys do not open it. 404 while no token is configured.',
          security: [{ metricsToken: [] }],
          responses: {
            '200': {
              description: 'OK: Prometheus text exposition format 0.0.4.',
              headers: headers(['Cache-Control']),
              content: { 'text/plain': { schema: { type: 'string' } } },
            },
            '401': {
              description: 'Unauthorized: no or a wrong bearer token.',
              headers: headers(['WWW-Authenticate']),
              content: json(schemaRef('ErrorBody')),
            },
            '404': { description: 'Not Found: no METRICS_TOKEN is configured.', content: json(schemaRef('ErrorBody')) },
            '429': ref('responses', 'TooManyRequests'),
            '500': ref('responses', 'InternalServerError'),
            '503': ref('responses', 'ServiceUnavailable'),
          },
        },
      },
      '/openapi.json': {
        get: {
          operationId: 'getOpenApiDocument',
          tags: ['operations'],
          summary: 'This document',
          description: 'Public: no credentials.',
          security: [],
          responses: {
            '200': {
              description: 'OK: the OpenAPI 3.1 document.',
              headers: headers(['Cache-Control']),
              content: json({ type: 'object', required: ['openapi', 'info', 'paths'] }),
            },
          },
        },
      },
    },
    components: {
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
    },
  }
}

let built: Json | undefined

/** The OpenAPI 3.1 document (built once per process; JSON-plain). */
export function openApiDocument(): Json {
  return (built ??= document())
}
