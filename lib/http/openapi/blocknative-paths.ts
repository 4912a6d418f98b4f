/** The paths of Blocknative's Gas Platform dialect (lib/blocknative): /gasprices/… and /chains. */
import type { Json, SchemaName } from './components'
import { catalogPath, windowAnswer, withQuery } from './path-items'

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
/** /gasprices/blockprices, /gasprices/basefee-estimates and /chains (tag blocknative). */
export function blocknativePaths(): Json {
  return {
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
  }
}
