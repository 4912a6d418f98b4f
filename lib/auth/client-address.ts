/**
 * The address failed authentications are counted against. Next's server sets X-Forwarded-For to the
 * socket's address only when the request has none (`??=`, next/dist/server/base-server.js), and the
 * middleware sees no socket of its own; so:
 * - trustProxy (TRUST_PROXY=true, a proxy in front appends or sets the header): the LAST entry, the
 *   address the proxy itself saw (entries before it are whatever the client sent);
 * - otherwise the whole header as Next exposes it: the socket address, unless the client sent the
 *   header itself (then the client picks its bucket; the per-instance ceiling turns failures into 429s).
 * Edge-safe.
 */
export function clientAddress(headers: Headers, trustProxy: boolean): string {
  const forwarded = headers.get('x-forwarded-for')?.trim()
  if (!forwarded) return 'unknown'
  if (!trustProxy) return forwarded.slice(0, 200)
  const hops = forwarded
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean)
  return hops.at(-1)?.slice(0, 100) ?? 'unknown'
}
