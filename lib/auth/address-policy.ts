import { addressSource } from './client-address'
import { describeTrustProxy, type TrustProxy } from './trust-proxy'

/**
 * What the start-up line says about client addresses, and whether the configuration must be refused: open access
 * (PUBLIC_ACCESS) counts its quota per address, so it never starts where the address would be one a client writes
 * (no peer seen, no platform header, no trusted proxy named).
 */
export function startupAddressLine(env: { TRUST_PROXY: TrustProxy; PUBLIC_ACCESS: boolean }): {
  refuse: boolean
  msg: string
  fields: Record<string, string>
} {
  const source = addressSource()
  const trust = describeTrustProxy(env.TRUST_PROXY)
  const fields = { addressSource: source, trustProxy: trust }
  if (source === 'platform')
    return {
      refuse: false,
      fields,
      msg: "client address: the platform's X-Vercel-Forwarded-For (set by Vercel's edge; clients cannot write it)",
    }
  if (source === 'peer')
    return {
      refuse: false,
      fields,
      msg:
        env.TRUST_PROXY.kind === 'none'
          ? 'client address: the TCP peer (X-Forwarded-For is not read: TRUST_PROXY is off)'
          : `client address: the TCP peer, then X-Forwarded-For from the right past the trusted proxies (TRUST_PROXY: ${trust})`,
    }
  if (env.TRUST_PROXY.kind !== 'none')
    return {
      refuse: false,
      fields,
      msg: `client address: this host shows no TCP peer; X-Forwarded-For is read from the right past the trusted proxies (TRUST_PROXY: ${trust}), whose first is taken to be the peer`,
    }
  if (env.PUBLIC_ACCESS)
    return {
      refuse: true,
      fields,
      msg: 'PUBLIC_ACCESS=true is refused: this host shows the service no client address (no TCP peer, no platform header) and TRUST_PROXY names no proxy, so the keyless quota would count an address the client writes. Run it with `next start` or the image, or behind a proxy with TRUST_PROXY set (docs/operations.md, Security)',
    }
  return {
    refuse: false,
    fields,
    msg: 'client address: unknown on this host (no TCP peer, no platform header, no TRUST_PROXY): failed authentications are counted per instance only, and valid credentials always pass',
  }
}
