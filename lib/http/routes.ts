import 'server-only'
import {
  getAccuracyReport,
  getBlobFees,
  getFeeReport,
  getLaneBody,
  getReplacementFees,
  getTransactionCost,
  supportedChainNames,
  supportedNetworks,
  type Endpoint,
  type ReportMeta,
} from '../fees'
import { MethodNotAllowedError } from '../core/contract/errors'
import { parseChainId } from './chain-id'
import { parseLane } from './lane-query'
import { ALLOWED_METHODS, toErrorResponse } from './error-answers'
import { freshnessHeaders } from './freshness-headers'
import { guarded, type RouteContext } from './guard'
import { multiChainHandler, multiSuggestedGasFees } from './multi-chain'
import { multiStreamGET, multiStreamHEAD } from './multi-stream'
import { observe } from './observe'
import { parseReplacementQuery } from './replacement-query'
import { streamGET, streamHEAD } from './stream'
import { parseTransactionCostQuery } from './transaction-cost-query'

/** What an endpoint answers for a chain (and the request's query): its body and the meta of the window it comes from. */
type Load = (chainId: number, query: URLSearchParams) => Promise<{ body: string; meta: ReportMeta }>

/** The loader of one fee endpoint: its part of the chain's report (serialised once per block). */
const reportPart =
  (endpoint: Endpoint): Load =>
  async (chainId) => {
    const { bodies, meta } = await getFeeReport(chainId)
    return { body: bodies[endpoint], meta }
  }

/** A GET handler for one chain's endpoint: parse the chain id, answer the loader's body with the window's headers. */
function jsonEndpoint(route: string, load: Load) {
  return (request: Request, context: RouteContext): Promise<Response> =>
    guarded(route, request, async ({ setChain }) => {
      const chainId = (await context.params).chainId
      setChain(chainId)
      const { body, meta } = await load(parseChainId(chainId), new URL(request.url).searchParams)
      return new Response(body, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', ...freshnessHeaders(meta) } })
    })
}

/** 405 for the write methods (the API is read-only), with Allow. */
export function methodNotAllowed(request: Request): Response {
  return observe('method-not-allowed', request, performance.now(), toErrorResponse(new MethodNotAllowedError(request.method)))
}

/** The service's own paths (/healthz, /readyz, /metrics, /openapi.json): readOnlyRoute's, their 405 unlogged as their GET. */
export function serviceRoute<G>(GET: G) {
  const refuse = (request: Request) => toErrorResponse(new MethodNotAllowedError(request.method))
  return { ...readOnlyRoute(GET), POST: refuse, PUT: refuse, PATCH: refuse, DELETE: refuse }
}

/** OPTIONS: 204 with Allow (Next's default would list the 405 handlers too). */
export function options(): Response {
  return new Response(null, { status: 204, headers: { allow: ALLOWED_METHODS } })
}

/** Every method of a read-only route: GET answers, OPTIONS lists, writes get 405. */
function readOnlyRoute<G>(GET: G) {
  return {
    GET,
    OPTIONS: options,
    POST: methodNotAllowed,
    PUT: methodNotAllowed,
    PATCH: methodNotAllowed,
    DELETE: methodNotAllowed,
  }
}

/**
 * A GET handler for an answer about the service rather than one chain (the /v1 catalogue), with the
 * same identity check, rate limit, errors and log line; cacheable for a minute (the configuration
 * changes only with a restart).
 */
function catalogEndpoint(route: string, body: () => unknown) {
  return (request: Request): Promise<Response> =>
    guarded(
      route,
      request,
      async () =>
        new Response(JSON.stringify(body()), {
          status: 200,
          headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'private, max-age=60' },
        }),
    )
}

/** The loader of each JSON endpoint of one chain, by the route's name (also its metrics label). */
const CHAIN_ENDPOINTS = {
  // the lane asked (?lane=big: HyperEVM's big blocks, ./lane-query.ts); other parameters are ignored
  suggestedGasFees: (chainId, query) => getLaneBody(chainId, 'suggestedGasFees', parseLane(query)),
  busyThreshold: reportPart('busyThreshold'),
  baseFeePercentile: reportPart('baseFeePercentile'),
  baseFeeHistory: reportPart('baseFeeHistory'),
  baseFeeForecast: reportPart('baseFeeForecast'),
  // legacy gas prices, on every chain (EIP-1559 or not), of the lane asked
  gasPrices: (chainId, query) => getLaneBody(chainId, 'gasPrices', parseLane(query)),
  // the fees that replace the pending transaction whose fees the query gives (./replacement-query.ts)
  replacementFees: (chainId, query) => getReplacementFees(chainId, parseReplacementQuery(query)),
  // a transaction's whole cost per level, the L1 data fee and operator fee included (./transaction-cost-query.ts)
  transactionCost: (chainId, query) => getTransactionCost(chainId, parseTransactionCostQuery(query)),
  // blob fees (EIP-4844), on chains with blobs
  blobFees: getBlobFees,
  // the service's measured accuracy over the window it serves
  accuracy: getAccuracyReport,
} satisfies Record<string, Load>

/** The answers about the service rather than one chain (the /v1 catalogue). */
const CATALOG = { supportedNetworks, supportedChainNames } satisfies Record<string, () => unknown>

type ChainEndpointName = keyof typeof CHAIN_ENDPOINTS
type CatalogName = keyof typeof CATALOG
/** Every API route by name: a chain's JSON endpoints, the catalogue, and the stream. */
export type RouteName = ChainEndpointName | CatalogName | 'stream'

/** The multi-chain routes (`/v1/<name>?chainIds=…`), beside the per-chain ones they answer from. */
const MULTI_CHAIN = {
  suggestedGasFees: () => readOnlyRoute(multiChainHandler('multiSuggestedGasFees', multiSuggestedGasFees)),
  stream: () => ({ ...readOnlyRoute(multiStreamGET), HEAD: multiStreamHEAD }),
}

/**
 * Every method of a multi-chain route, by its name: GET /v1/suggestedGasFees (each chain's body by chain id) or
 * GET /v1/stream (one event stream for the chains).
 */
export function multiChainRoute<N extends keyof typeof MULTI_CHAIN>(name: N): ReturnType<(typeof MULTI_CHAIN)[N]> {
  return MULTI_CHAIN[name]() as ReturnType<(typeof MULTI_CHAIN)[N]>
}

/**
 * Every method of one API route, by its name: GET answers (HEAD too, as GET without a body), OPTIONS lists,
 * the write methods get 405.
 */
export function apiRoute(name: 'stream'): ReturnType<typeof readOnlyRoute<typeof streamGET>> & { HEAD: typeof streamHEAD }
export function apiRoute(name: CatalogName): ReturnType<typeof readOnlyRoute<(request: Request) => Promise<Response>>>
export function apiRoute(
  name: ChainEndpointName,
): ReturnType<typeof readOnlyRoute<(request: Request, context: RouteContext) => Promise<Response>>>
export function apiRoute(name: RouteName) {
  if (name === 'stream') return { ...readOnlyRoute(streamGET), HEAD: streamHEAD }
  if (Object.hasOwn(CATALOG, name)) return readOnlyRoute(catalogEndpoint(name, CATALOG[name as CatalogName]))
  return readOnlyRoute(jsonEndpoint(name, CHAIN_ENDPOINTS[name as ChainEndpointName]))
}

/** A route's methods as Infura's `/v3/<key>/…` form calls them: the request, and the chain id of a chain's route. */
export type KeyPathHandlers = Partial<
  Record<
    'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    (request: Request, context: RouteContext) => Promise<Response> | Response
  >
>

/**
 * The route a chain's path `/networks/<chainId>/<name>` names (its JSON endpoints and the stream), or null:
 * what Infura's `/v3/<key>/networks/<chainId>/<name>` answers with.
 */
export function chainRouteNamed(name: string): KeyPathHandlers | null {
  if (name === 'stream') return apiRoute('stream')
  return Object.hasOwn(CHAIN_ENDPOINTS, name) ? apiRoute(name as ChainEndpointName) : null
}

/** The route of a /v1 path's last segment (the catalogue, the multi-chain routes), or null. */
export function catalogRouteNamed(name: string): KeyPathHandlers | null {
  if (Object.hasOwn(MULTI_CHAIN, name)) return multiChainRoute(name as keyof typeof MULTI_CHAIN)
  return Object.hasOwn(CATALOG, name) ? apiRoute(name as CatalogName) : null
}
