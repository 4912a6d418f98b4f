/** Whether a raw URL path holds a percent-escape that does not decode (e.g. */
export function hasMalformedEscape(pathname: string): boolean {
  try {
    decodeURIComponent(pathname)
    return false
  } catch {
    return true
  }
}
