import { clientKey, inCidr, parseIp } from './ip'
import type { TrustProxy } from './trust-proxy'
import { peerStampInstalled } from '../runtime/peer-stamp'

/**
 * Where the service learns who its client is: `peer`, the TCP peer stamped by this process (lib/runtime/peer-stamp.ts);
 * `platform`, Vercel's edge, which overwrites X-Forwarded-For (vercel.com/docs/headers/request-headers: "… to prevent IP
 * spoofing"); `none`: only a proxy the operator named (TRUST_PROXY) can say.
 */
export type AddressSource = 'peer' | 'platform' | 'none'

/**
 * Whether this process is a function on Vercel: VERCEL is set and it is not a self-hosted `next start` (titled
 * `next-server`), which loads VERCEL=1 from `vercel env pull`'s .env.local and where any client writes X-Vercel-Forwarded-For.
 */
export const onVercelPlatform = () => Boolean(process.env.VERCEL) && !process.title.startsWith('next-server')

/** Where this process learns its clients' addresses (fixed once the instrumentation hook has run). */
export const addressSource = (): AddressSource => (onVercelPlatform() ? 'platform' : peerStampInstalled() ? 'peer' : 'none')

/** The platform's client-address header (set by Vercel's edge on every request; a proxy on top cannot overwrite it). */
export const PLATFORM_ADDRESS_HEADER = 'x-vercel-forwarded-for'

const forwardedList = (headers: Headers) =>
  (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean)

/**
 * The address every per-client limit counts against, as Express's `trust proxy` finds it: from the peer leftwards
 * through X-Forwarded-For, the first address that is not a trusted proxy. With source `none` the peer is taken to be
 * the first trusted proxy. An IPv6 client is its /64 (clientKey). Edge-safe.
 * @param peer the TCP peer's address (source `peer`), as the stamp carries it
 * @returns the client's key, or null when it cannot be known (the gate then counts nothing per address)
 */
export function clientAddress(headers: Headers, trust: TrustProxy, source: AddressSource, peer: string | null): string | null {
  if (source === 'platform') {
    const first = (headers.get(PLATFORM_ADDRESS_HEADER) ?? headers.get('x-forwarded-for') ?? '').split(',')[0] ?? ''
    const ip = parseIp(first)
    return ip ? clientKey(ip) : null
  }
  const reported = forwardedList(headers).reverse()
  // hop i of the chain: 0 is the peer; with source none the peer is unseen and assumed the first trusted proxy
  let chain: string[]
  let first: number
  if (source === 'peer') {
    if (peer === null) return null
    chain = [peer, ...reported]
    first = 0
  } else {
    if (trust.kind === 'none') return null
    chain = reported
    first = 1
  }
  for (let i = 0; i < chain.length; i++) {
    const ip = parseIp(chain[i]!)
    // an entry that is no address was not written by a proxy that counts
    if (!ip) return null
    const hop = i + first
    const trusted = trust.kind === 'hops' ? hop < trust.hops : trust.kind === 'list' && trust.ranges.some((r) => inCidr(ip, r))
    if (!trusted || i === chain.length - 1) return clientKey(ip)
  }
  return null
}
