/**
 * Whether a raw URL path holds a percent-escape that does not decode (e.g. `%ZZ`, or bytes that are
 * not UTF-8). Next 16 answers such a path in a dynamic segment with a plain-text 500 before any
 * route code runs, so the middleware turns it into our 400 instead.
 */
export function hasMalformedEscape(pathname: string): boolean {
  try {
    decodeURIComponent(pathname)
    return false
  } catch {
    return true
  }
}
