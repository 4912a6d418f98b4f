import 'server-only'
import { ConfigError } from '../env'
import { logger } from '../log/logger'
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
  StreamCapacityError,
  TooManyStreamsError,
  UnauthenticatedError,
  UnsupportedChainError,
  UpstreamBadResponseError,
  UpstreamUnavailableError,
} from '../core/contract/errors'

/** Methods every endpoint answers. */
export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS'

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
  answer(StreamCapacityError, { status: 503, headers: retryAfter }),
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

/** The one place that turns an error into a status and the JSON error body (ERROR_ANSWERS). */
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
