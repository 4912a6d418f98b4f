/** Whether a raw URL path holds a percent-escape that does not decode (e.g. */
export function hasMalformedEscape(pathname: string): boolean {
  try {
    decodeURIComponent(pathname)
    return false
  } catch {
    return true
  }
}

/**
 * Whether a path is one of the API's own answers (JSON, the stream, metrics, probes), not a page: these get
 * the fixed policy that allows nothing, and CORS headers when CORS_ORIGINS is set.
 */
export const isApiPath = (path: string) =>
  /^\/networks\/[^/]+\/./.test(path) ||
  ['/v1/', '/v3/', '/gasprices/'].some((prefix) => path.startsWith(prefix)) ||
  ['/chains', '/metrics', '/readyz', '/healthz', '/openapi.json'].includes(path)
