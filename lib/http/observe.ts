import 'server-only'
import { getServerEnv } from '../env'
import { count, observeSeconds } from '../metrics/registry'
import { logRequest } from '../log/logger'

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
    logRequest({
      method: request.method,
      route,
      chainId: chainId && chainId.length <= 20 ? chainId : chainId ? `${chainId.slice(0, 20)}…` : undefined,
      status: res.status,
      ms: Math.round(seconds * 10_000) / 10,
      key,
      block: res.headers.get('x-block-number') ?? undefined,
      stale: res.headers.get('x-data-stale') === 'true' || undefined,
    })
  }
  return res
}
