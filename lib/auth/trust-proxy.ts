import { parseCidr, type Cidr } from './ip'

/**
 * Which proxies in front of the service are trusted to say who the client is (TRUST_PROXY), as Express's
 * `trust proxy` reads it: none; a number of hops (`true` is one); or the proxies' addresses and ranges.
 */
export type TrustProxy = { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'list'; ranges: Cidr[] }

/** The most hops TRUST_PROXY takes: more proxies than that in front of one service is a misconfiguration. */
export const MAX_TRUSTED_HOPS = 10

// Express's named ranges (proxy-addr's IP_RANGES)
const NAMED: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
}

/**
 * Reads TRUST_PROXY: unset, `false` or `0` (none); `true` (one hop); `1`…`10` (hops); or a comma-separated list of
 * addresses, CIDR ranges and the names `loopback`, `linklocal`, `uniquelocal`.
 * @throws Error naming the entry that is none of these
 */
export function parseTrustProxy(text: string | undefined): TrustProxy {
  const s = (text ?? '').trim().toLowerCase()
  if (s === '' || s === 'false' || s === '0') return { kind: 'none' }
  if (s === 'true') return { kind: 'hops', hops: 1 }
  if (/^\d+$/.test(s)) {
    const hops = Number(s)
    if (hops > MAX_TRUSTED_HOPS) throw new Error(`at most ${MAX_TRUSTED_HOPS} hops`)
    return { kind: 'hops', hops }
  }
  const ranges: Cidr[] = []
  s.split(',').forEach((entry, i) => {
    const e = entry.trim()
    const named = NAMED[e]
    const parsed = named ? named.map(parseCidr) : [parseCidr(e)]
    if (e === '' || parsed.some((c) => c === null))
      throw new Error(`entry ${i + 1} is not true, false, a number of hops, an address, a CIDR range or loopback/linklocal/uniquelocal`)
    ranges.push(...(parsed as Cidr[]))
  })
  return { kind: 'list', ranges }
}

/** How a setting reads in a log line: `none`, `2 hops`, `3 ranges`. */
export const describeTrustProxy = (t: TrustProxy) =>
  t.kind === 'none'
    ? 'none'
    : t.kind === 'hops'
      ? `${t.hops} hop${t.hops === 1 ? '' : 's'}`
      : `${t.ranges.length} range${t.ranges.length === 1 ? '' : 's'}`
