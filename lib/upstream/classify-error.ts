import { HttpRequestError, RpcRequestError, TimeoutError } from 'viem'
import { UpstreamBadResponseError, UpstreamUnavailableError } from '../core/contract/errors'

/**
 * The cause kept on our errors: viem's short message only. viem's error objects carry the RPC URL
 * (often with a provider API key) and the request body, and Next logs a failed cache
 * revalidation's error with its cause, so they must not travel on.
 */
function sanitized(err: unknown): Error {
  const e = err as { name?: string; shortMessage?: string; code?: number }
  const safe = new Error(e.shortMessage ?? 'upstream request failed')
  safe.name = e.name ?? 'Error'
  return safe
}

/** HTTP statuses of a node that is there but cannot answer now (overloaded, rate-limiting, behind a failing gateway). */
export const UNAVAILABLE_HTTP_STATUSES: readonly number[] = [429, 502, 503, 504]

/** Maps a viem transport error to our upstream error classes. */
export function classifyRpcError(err: unknown): UpstreamBadResponseError | UpstreamUnavailableError {
  if (err instanceof UpstreamBadResponseError || err instanceof UpstreamUnavailableError) return err
  const cause = sanitized(err)
  if (err instanceof TimeoutError) {
    return new UpstreamUnavailableError('The upstream node did not answer in time.', { cause })
  }
  if (err instanceof HttpRequestError) {
    // what the client's fetch refused (./client.ts refuseUnavailable), viem wraps
    const refused = (err as { cause?: unknown }).cause
    if (refused instanceof UpstreamUnavailableError) return refused
    const status = err.status
    if (status === undefined) {
      if ((err as { cause?: unknown }).cause instanceof SyntaxError) {
        return new UpstreamBadResponseError('The upstream node answered with something that is not JSON.', { cause })
      }
      return new UpstreamUnavailableError('The upstream node could not be reached.', { cause })
    }
    if (UNAVAILABLE_HTTP_STATUSES.includes(status)) {
      return new UpstreamUnavailableError(`The upstream node is unavailable (HTTP ${status}).`, { cause })
    }
    return new UpstreamBadResponseError(`The upstream node answered with HTTP ${status}.`, { cause })
  }
  // providers' rate limits and overload answers (HTTP 429 with a JSON-RPC body, code 429,
  // -32005 limit exceeded, -32007 request rate, -32002 resource unavailable): try again later
  const code = (err as { code?: unknown }).code
  if (typeof code === 'number' && [429, -32005, -32007, -32002].includes(code)) {
    return new UpstreamUnavailableError(`The upstream node is rate-limiting or overloaded (JSON-RPC error ${code}).`, { cause })
  }
  if (err instanceof RpcRequestError) {
    return new UpstreamBadResponseError(`The upstream node returned JSON-RPC error ${err.code}.`, { cause })
  }
  return new UpstreamBadResponseError('The upstream node answered with an unusable response.', { cause })
}
