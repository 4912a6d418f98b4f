import 'server-only'
import type { FeeWindow } from '../core/types'
import { FeeMarketUnsupportedError, UpstreamUnavailableError } from '../core/contract/errors'
import { withDeadline } from '../runtime/deadline'
import { classifyRpcError } from './classify-error'
import { readFromUrl, type ReadFeeWindowParameters } from './read-from-url'
import { healthyFirst, markHealthy, markUnhealthy } from './url-health'

/**
 * Reads a chain's fee window (on a chain whose blocks carry no baseFeePerGas, a `legacy` window of the same
 * calls): one JSON-RPC batch per URL (eth_getBlockByNumber latest + eth_feeHistory, plus eth_chainId the
 * first time an URL is used and once a minute after, and the interval anchor block when due; a cold read adds
 * the 'finalized' block as its anchor), validated with zod.
 */
export async function readFeeWindow(params: ReadFeeWindowParameters): Promise<FeeWindow> {
  const deadline = Date.now() + params.timeoutMs
  const now = Date.now()
  const ordered = healthyFirst(params.rpcUrls, now)
  let lastError: Error = new UpstreamUnavailableError('No RPC endpoint is configured for this chain.')
  let unsupported: FeeMarketUnsupportedError | undefined
  let otherFailure = false
  let legacy: FeeWindow | undefined
  for (const [i, url] of ordered.entries()) {
    const remaining = deadline - Date.now()
    if (remaining <= 0) break
    // each URL gets its share of what is left, so a hanging first URL leaves time for the next
    const urlsLeft = ordered.length - i
    const budget = urlsLeft > 1 ? Math.max(remaining / urlsLeft, Math.min(remaining, 1_000)) : remaining
    try {
      const window = await withDeadline(readFromUrl(url, params.timeoutMs, params), budget)
      markHealthy(url)
      // one node without London beside EIP-1559 ones is misconfigured, not the chain: a first read asks the others too
      if (window.legacy && params.previous === undefined && i < ordered.length - 1) {
        legacy ??= window
        continue
      }
      return window
    } catch (err) {
      if (err instanceof FeeMarketUnsupportedError) unsupported = err
      else {
        lastError = classifyRpcError(err)
        otherFailure = true
      }
      markUnhealthy(url, Date.now())
    }
  }
  // legacy or unsupported only when every node answered so: a failing node says nothing either way, and one odd
  // node beside it must not lock the chain in (later reads trust the verdict); the read fails and is retried
  if (legacy && !otherFailure) return legacy
  throw unsupported && !otherFailure ? unsupported : lastError
}
