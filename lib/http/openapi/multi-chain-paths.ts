/** The multi-chain paths, /v1/suggestedGasFees and /v1/stream: several chains' answers in one call or one stream. */
import { errors, headers, json, RATE_LIMIT_HEADERS, schemaRef, type Json } from './components'
import { API_ERRORS, readOnlyMethods } from './path-items'
import { MAX_CHAIN_IDS } from '../chain-ids-query'

const CHAIN_IDS: Json = {
  name: 'chainIds',
  in: 'query',
  required: false,
  description: `The chains, comma-separated canonical decimal ids (as {chainId}), distinct, at most ${MAX_CHAIN_IDS}; without it, every supported chain in ascending id order. 400, naming chainIds: empty, an empty entry, an id that is not a canonical decimal, a duplicate, more than ${MAX_CHAIN_IDS} ids, the parameter repeated, or any other parameter.`,
  schema: { type: 'string', pattern: '^[1-9][0-9]{0,15}(,[1-9][0-9]{0,15})*$' },
  example: '1,8453,42161',
}

const QUOTA =
  'The same credentials, keyless tier, CORS and quota as the per-chain endpoints; the call counts once per chain it names (RateLimit-Remaining falls by that many; a list longer than what is left is a 429).'

const SUGGESTED_EXAMPLE = {
  '1': {
    low: { suggestedMaxPriorityFeePerGas: '0.05', suggestedMaxFeePerGas: '9.212', minWaitTimeEstimate: 15000, maxWaitTimeEstimate: 30000 },
    medium: { suggestedMaxPriorityFeePerGas: '0.1', suggestedMaxFeePerGas: '11.5', minWaitTimeEstimate: 15000, maxWaitTimeEstimate: 45000 },
    high: { suggestedMaxPriorityFeePerGas: '0.3', suggestedMaxFeePerGas: '14.1', minWaitTimeEstimate: 12000, maxWaitTimeEstimate: 25000 },
    estimatedBaseFee: '9.162',
    networkCongestion: 0.52,
    latestPriorityFeeRange: ['0.01', '2'],
    historicalPriorityFeeRange: ['0.001', '50'],
    historicalBaseFeeRange: ['7.1', '13.9'],
    priorityFeeTrend: 'down',
    baseFeeTrend: 'up',
  },
  '56': { statusCode: 400, error: 'Bad Request', message: "'56' is not a supported chain id." },
}

const STREAM_DESCRIPTION = `Server-Sent Events for several chains on one connection. Each chain's events are the ones its GET /networks/{chainId}/stream sends, with \`chainId\` first in \`data:\` and no \`id:\` line: at once each chain's current answer (\`event: fees\`, a ChainFeesEvent; or \`event: error\`, a ChainErrorEvent), then the same per-block pushes, from the same per-chain subscriptions (no reads beyond the per-chain streams'). A chain that cannot stream (not supported, no EIP-1559) gets its \`error\` event once; the others stream; when none can, the first one's error answers instead of a stream, as its own stream's would (a 400). The connection takes one stream slot per chain under the same ceilings (STREAM_MAX_PER_KEY, PUBLIC_STREAM_LIMIT, STREAM_MAX_TOTAL): 429 or 503 before it opens when they do not fit. ${QUOTA}`

/** /v1/suggestedGasFees and /v1/stream (tag fees). */
export function multiChainPaths(): Json {
  return {
    '/v1/suggestedGasFees': {
      get: {
        operationId: 'getMultiChainSuggestedGasFees',
        tags: ['fees'],
        summary: "Several chains' suggestedGasFees in one call",
        description: `200 with an object keyed by decimal chain id, in the order asked: each value exactly the body GET /networks/{chainId}/suggestedGasFees would serve now (same window), or in its place the JSON error body that route would answer (an unsupported chain, a node down, a chain without EIP-1559): one chain's failure never fails the call. No upstream read of its own: each chain's window, a cold one read once, in parallel. Cache-Control, Age and X-Data-Stale are the call's as a whole (the shortest max-age, no-store when a chain is stale or failed); X-Chain-Freshness gives each chain's block, age and staleness. ${QUOTA}`,
        parameters: [CHAIN_IDS],
        responses: {
          '200': {
            description: 'OK',
            headers: headers(['Age', 'X-Data-Stale', 'Cache-Control', 'X-Chain-Freshness'], ['Warning', ...RATE_LIMIT_HEADERS]),
            content: {
              'application/json': { ...json(schemaRef('MultiChainSuggestedGasFees'))['application/json'], example: SUGGESTED_EXAMPLE },
            },
          },
          ...errors('BadRequest', ...API_ERRORS),
        },
      },
      ...readOnlyMethods('fees'),
    },
    '/v1/stream': {
      get: {
        operationId: 'getMultiChainStream',
        tags: ['fees'],
        summary: "Several chains' fee answers on one event stream (Server-Sent Events)",
        description: STREAM_DESCRIPTION,
        parameters: [CHAIN_IDS],
        responses: {
          '200': {
            description: 'OK: the event stream.',
            headers: headers(['Cache-Control'], RATE_LIMIT_HEADERS),
            content: {
              'text/event-stream': {
                schema: {
                  type: 'string',
                  description: 'A stream of `fees` and `error` events, each naming its chain (see the operation description).',
                },
                example:
                  'retry: 1000\n: stream of chains 1,56; it ends after 280 s, reconnect then\n\nevent: fees\ndata: {"chainId":1,"blockNumber":21000000,"stale":false,"suggestedGasFees":{…},…}\n\nevent: error\ndata: {"chainId":56,"statusCode":400,"error":"Bad Request","message":"\'56\' is not a supported chain id."}\n\n',
                'x-sse-events': { fees: schemaRef('ChainFeesEvent'), error: schemaRef('ChainErrorEvent') },
              },
            },
          },
          ...errors('BadRequest', ...API_ERRORS),
        },
      },
      ...readOnlyMethods('fees'),
    },
  }
}
