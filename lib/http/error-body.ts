import { REASON_PHRASES } from './reason-phrases'

/** The error body used everywhere: `{"statusCode", "error", "message"}` (Infura's shape). Edge-safe. */
export function errorJson(
  status: number,
  message: string,
  headers: Record<string, string> = {},
  extra: Record<string, unknown> = {},
): Response {
  const body = { statusCode: status, error: REASON_PHRASES[status] ?? 'Error', message, ...extra }
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  })
}

/** The HTTP Basic challenge every 401 for missing or wrong API credentials carries (RFC 7617). */
export const BASIC_CHALLENGE = { 'www-authenticate': 'Basic realm="gas-api", charset="UTF-8"' }

/** The challenge of /metrics, whose token is sent as a Bearer credential. */
export const BEARER_CHALLENGE = { 'www-authenticate': 'Bearer realm="gas-api-metrics"' }

/**
 * The answer to a configuration the service refuses (fail closed): 503, no detail for the client
 * (the operator gets it in the log), a retry in a minute.
 */
export const MISCONFIGURED = {
  status: 503,
  message: 'The service is misconfigured; its operator has been told.',
  headers: { 'retry-after': '60' },
} as const
