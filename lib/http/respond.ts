import 'server-only'
import {
  getAccuracyReport,
  getBlobFees,
  getFeeReport,
  getGasPrices,
  getReplacementFees,
  getTransactionCost,
  supportedChainNames,
  supportedNetworks,
  type Endpoint,
  type ReportMeta,
} from '../fees'
import { IDENTITY_HEADER, verifyIdentity } from '../auth/identity'
import { ConfigError, getApiKeysSetting, getServerEnv } from '../env'
import { count, observeSeconds } from '../metrics/registry'
import { logger } from '../log/logger'
import { consumeRateLimit } from '../ratelimit'
import { parseChainId } from './chain-id'
import { parseReplacementQuery } from './replacement-query'
import { parseTransactionCostQuery } from './transaction-cost-query'
import { BASIC_CHALLENGE, errorJson, MISCONFIGURED } from './error-body'
import {
  BlobsUnsupportedError,
  BlobFeeMarketUnsupportedError,
  FeeMarketUnsupportedError,
  InvalidChainIdError,
  InvalidQueryError,
  MethodNotAllowedError,
  NoPriceDataError,
  NotFoundError,
  RateLimitedError,
  TooManyStreamsError,
  UnauthenticatedError,
  UnsupportedChainError,
  UpstreamBadResponseError,
  UpstreamUnavailableError,
} from '../core/contract/errors'

/** Methods every endpoint answers. */
const ALLOWED_METHODS = 'GET, HEAD, OPTIONS'

type ErrorClass<E extends Error> = new (...args: never[]) => E

/** How one error class is answered. */
type ErrorAnswer<E extends Error> = {
  status: number
  /** The client's message; default: the error's own (written for clients: no URLs, no secrets). */
  message?: (err: E) => string
  headers?: (err: E) => Record<string, string>
  /** Logged (name and message only) before it is answered: the operator should hear of it. */
  log?: true
}

const answer = <E extends Error>(type: ErrorClass<E>, how: ErrorAnswer<E>) => [type, how as ErrorAnswer<Error>] as const

const retryAfter = (err: { retryAfterSeconds: number }) => ({ 'retry-after': String(err.retryAfterSeconds) })

/** Error class → status, message and headers; the reason phrase follows from the status (error-body.ts). */
const ERROR_ANSWERS = new Map<ErrorClass<Error>, ErrorAnswer<Error>>([
  answer(InvalidChainIdError, { status: 400 }),
  answer(UnsupportedChainError, { status: 400 }),
  answer(FeeMarketUnsupportedError, { status: 400 }),
  answer(InvalidQueryError, { status: 400 }),
  answer(BlobsUnsupportedError, { status: 400 }),
  answer(BlobFeeMarketUnsupportedError, { status: 400 }),
  answer(UnauthenticatedError, { status: 401, headers: () => BASIC_CHALLENGE }),
  answer(NotFoundError, { status: 404 }),
  answer(MethodNotAllowedError, { status: 405, headers: () => ({ allow: ALLOWED_METHODS }) }),
  answer(RateLimitedError, { status: 429, headers: (err) => ({ ...err.headers, ...retryAfter(err) }) }),
  answer(TooManyStreamsError, { status: 429, headers: retryAfter }),
  answer(UpstreamBadResponseError, { status: 502, log: true }),
  answer(UpstreamUnavailableError, {
    status: 503,
    log: true,
    message: (err) => `${err.message} No fee data is available right now; retry shortly.`,
    headers: retryAfter,
  }),
  answer(NoPriceDataError, {
    status: 503,
    message: (err) => `${err.message} No gas price is available right now; retry shortly.`,
    headers: retryAfter,
  }),
  answer(ConfigError, {
    status: MISCONFIGURED.status,
    log: true,
    message: () => MISCONFIGURED.message,
    headers: () => MISCONFIGURED.headers,
  }),
])

/** The answer for the error's class or, as instanceof would, the nearest class it extends that has one. */
function answerFor(err: Error): ErrorAnswer<Error> | undefined {
  for (let proto: unknown = Object.getPrototypeOf(err); proto !== null; proto = Object.getPrototypeOf(proto)) {
    const found = ERROR_ANSWERS.get((proto as { constructor: ErrorClass<Error> }).constructor)
    if (found !== undefined) return found
  }
  return undefined
}

/** The status an error is answered with (ERROR_ANSWERS; 500 for an unknown one). */
export function errorStatus(err: unknown): number {
  return (err instanceof Error ? answerFor(err)?.status : undefined) ?? 500
}

/**
 * The one place that turns an error into a status and the JSON error body (ERROR_ANSWERS). Unknown
 * errors are logged by name and message only (causes may hold RPC URLs with provider keys) and
 * answered 500 without detail.
 */
export function toErrorResponse(err: unknown): Response {
  const how = err instanceof Error ? answerFor(err) : undefined
  if (how === undefined) {
    logError(err)
    return errorJson(500, 'An unexpected error occurred.')
  }
  const known = err as Error
  if (how.log) logError(known)
  return errorJson(how.status, how.message?.(known) ?? known.message, how.headers?.(known))
}

/** Any URL in a message (an RPC URL carries a provider key; fetch's own errors quote the URL). */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"]+/gi

function logError(err: unknown) {
  const e = err instanceof Error ? err : new Error(String(err))
  logger().error({ error: e.name, message: e.message.replace(URL_IN_TEXT, '[url]') })
}

/** Headers that say which block the data is for, how old it is, and how long it may be cached. */
export function freshnessHeaders(meta: ReportMeta, now = Date.now()): Record<string, string> {
  const headers: Record<string, string> = {
    'x-chain-id': String(meta.chainId),
    'x-block-number': String(meta.blockNumber),
    'x-block-timestamp': String(meta.blockTimestamp),
    'x-block-interval-ms': String(meta.blockIntervalMs),
    age: String(Math.max(0, Math.floor((now - meta.fetchedAt) / 1000))),
    'x-data-stale': String(meta.stale),
    'cache-control': meta.stale ? 'no-store' : `private, max-age=${Math.max(0, Math.floor((meta.freshUntil - now) / 1000))}`,
  }
  if (meta.stale) headers.warning = '110 - "Response is Stale"'
  return headers
}

export type RouteContext = { params: Promise<{ chainId: string }> }

/**
 * The API key the middleware verified, from its signed header. Fails closed: a request that reached a
 * handler any other way (no header, or one the client made up) is refused.
 * @throws UnauthenticatedError (401)
 */
export async function requireIdentity(request: Request): Promise<string> {
  const key = await verifyIdentity(request.headers.get(IDENTITY_HEADER), getApiKeysSetting())
  if (key === null) throw new UnauthenticatedError()
  return key
}

/**
 * Counts and times an answer for /metrics and, unless REQUEST_LOG=false, logs it as one JSON line: route,
 * chain, status, duration, the API key's name (never its secret), block and staleness.
 */
export function observe(route: string, request: Request, started: number, res: Response, chainId?: string, key?: string): Response {
  const seconds = (performance.now() - started) / 1000
  count('gas_api_requests_total', { route, status: res.status })
  observeSeconds('gas_api_request_duration_seconds', { route, status: res.status }, seconds)
  let log = false
  try {
    log = getServerEnv().REQUEST_LOG
  } catch {
    // a configuration error is answered and logged elsewhere
  }
  if (log) {
    logger().info(
      {
        method: request.method,
        route,
        chainId: chainId && chainId.length <= 20 ? chainId : chainId ? `${chainId.slice(0, 20)}…` : undefined,
        status: res.status,
        ms: Math.round(seconds * 10_000) / 10,
        key,
        block: res.headers.get('x-block-number') ?? undefined,
        stale: res.headers.get('x-data-stale') === 'true' || undefined,
      },
      'request',
    )
  }
  return res
}

/** What an endpoint answers for a chain (and the request's query): its body and the meta of the window it comes from. */
type Load = (chainId: number, query: URLSearchParams) => Promise<{ body: string; meta: ReportMeta }>

/** The loader of one fee endpoint: its part of the chain's report (serialised once per block). */
const reportPart =
  (endpoint: Endpoint): Load =>
  async (chainId) => {
    const { bodies, meta } = await getFeeReport(chainId)
    return { body: bodies[endpoint], meta }
  }

/**
 * What every API answer shares: the identity check and the rate limit first, then `answer`; an error
 * becomes its status and JSON body; the rate-limit headers and the log line go on either.
 */
export async function guarded(
  route: string,
  request: Request,
  answer: (ctx: { key: string; setChain(chainId: string): void }) => Promise<Response>,
): Promise<Response> {
  const started = performance.now()
  let limits: Record<string, string> = {}
  let chainId: string | undefined
  let key: string | undefined
  let res: Response
  try {
    key = await requireIdentity(request)
    limits = await consumeRateLimit(key)
    res = await answer({ key, setChain: (c) => (chainId = c) })
  } catch (err) {
    res = toErrorResponse(err)
  }
  for (const [k, v] of Object.entries(limits)) res.headers.set(k, v)
  return observe(route, request, started, res, chainId, key)
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

/** Every method of an EIP-1559 fee endpoint's route. */
export const feeRoute = (endpoint: Exclude<Endpoint, 'gasPrices'>) => readOnlyRoute(jsonEndpoint(endpoint, reportPart(endpoint)))

/** Every method of GET /networks/{chainId}/gasPrices: legacy gas prices, on every chain (EIP-1559 or not). */
export const gasPricesRoute = () => readOnlyRoute(jsonEndpoint('gasPrices', getGasPrices))

/**
 * Every method of GET /networks/{chainId}/replacementFees: the fees that replace the pending
 * transaction whose fees the query gives (lib/http/replacement-query.ts parses it).
 */
export const replacementFeesRoute = () =>
  readOnlyRoute(jsonEndpoint('replacementFees', (chainId, query) => getReplacementFees(chainId, parseReplacementQuery(query))))

/**
 * Every method of GET /networks/{chainId}/transactionCost: a transaction's whole cost per level, the L1
 * data fee and operator fee included (./transaction-cost-query.ts parses the query).
 */
export const transactionCostRoute = () =>
  readOnlyRoute(jsonEndpoint('transactionCost', (chainId, query) => getTransactionCost(chainId, parseTransactionCostQuery(query))))

/** Every method of GET /networks/{chainId}/blobFees: blob fees (EIP-4844), on chains with blobs. */
export const blobFeesRoute = () => readOnlyRoute(jsonEndpoint('blobFees', getBlobFees))

/** Every method of GET /networks/{chainId}/accuracy: the service's measured accuracy over the window it serves. */
export const accuracyRoute = () => readOnlyRoute(jsonEndpoint('accuracy', getAccuracyReport))

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

/** Every method of GET /v1/supportedNetworks. */
export const supportedNetworksRoute = () => readOnlyRoute(catalogEndpoint('supportedNetworks', supportedNetworks))
/** Every method of GET /v1/supportedChainNames. */
export const supportedChainNamesRoute = () => readOnlyRoute(catalogEndpoint('supportedChainNames', supportedChainNames))
