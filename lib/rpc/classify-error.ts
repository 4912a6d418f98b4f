import { HttpRequestError, RpcRequestError, TimeoutError } from 'viem'
import { UpstreamBadResponseError, UpstreamUnavailableError } from '../http/errors'

/**
 * Maps a viem transport error to our upstream error classes. Messages stay generic: viem's own
 * messages contain the RPC URL, which often embeds a provider API key.
 */
export function classifyRpcError(err: unknown): UpstreamBadResponseError | UpstreamUnavailableError {
  if (err instanceof UpstreamBadResponseError || err instanceof UpstreamUnavailableError) return err
  if (err instanceof TimeoutError) {
    return new UpstreamUnavailableError('The upstream node did not answer in time.', { cause: err })
  }
  if (err instanceof HttpRequestError) {
    const status = err.status
    if (status === undefined) {
      const cause = (err as { cause?: unknown }).cause
      if (cause instanceof SyntaxError) {
        return new UpstreamBadResponseError('The upstream node answered with something that is not JSON.', { cause: err })
      }
      return new UpstreamUnavailableError('The upstream node could not be reached.', { cause: err })
    }
    if (status === 429 || status === 502 || status === 503 || status === 504) {
      return new UpstreamUnavailableError(`The upstream node is unavailable (HTTP ${status}).`, { cause: err })
    }
    return new UpstreamBadResponseError(`The upstream node answered with HTTP ${status}.`, { cause: err })
  }
  if (err instanceof RpcRequestError) {
    return new UpstreamBadResponseError(`The upstream node returned JSON-RPC error ${err.code}.`, { cause: err })
  }
  return new UpstreamBadResponseError('The upstream node answered with an unusable response.', { cause: err })
}
