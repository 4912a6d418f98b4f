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
