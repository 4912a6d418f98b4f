import { z } from 'zod'
import { ApiKeysSchema, MIN_SECRET_LENGTH, parseApiKeysText } from '../auth/api-keys-setting'
import { parsePublicKeysText } from '../auth/public-keys-setting'
import { parseTrustProxy } from '../auth/trust-proxy'
import { booleanFlag } from './fields'

/** Who may call and from where: the settings the middleware reads (lib/env.ts getEdgeEnv), validated with the rest at start. */

/** PUBLIC_API_KEYS validated by parsePublicKeysText; its message (safe: no key) becomes the issue's. */
const PublicApiKeysSchema = z
  .string()
  .default('')
  .superRefine((s, ctx) => {
    try {
      parsePublicKeysText(s)
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message, params: { safe: true } })
    }
  })

/**
 * CORS_ORIGINS: `*`, or comma-separated origins (`scheme://host[:port]`, no path, query or credentials), kept
 * as browsers serialise them (lower case, no default port); unset or empty: CORS off.
 */
const CorsOriginsSchema = z
  .string()
  .optional()
  .transform((s, ctx): '*' | string[] | undefined => {
    const entries = (s ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean)
    if (entries.length === 0) return undefined
    if (entries.includes('*')) {
      if (entries.length > 1)
        ctx.addIssue({ code: 'custom', message: 'CORS_ORIGINS is either * or a list of origins', params: { safe: true } })
      return '*'
    }
    return entries.map((entry, i) => {
      let url: URL | undefined
      try {
        url = new URL(entry)
      } catch {
        // reported below
      }
      const bare = url && /^https?:$/.test(url.protocol) && !url.username && !url.password && !url.search && !url.hash
      if (!url || !bare || !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]+\/?$/i.test(entry)) {
        ctx.addIssue({
          code: 'custom',
          message: `CORS_ORIGINS entry ${i + 1} is not an origin (http(s)://host[:port], no path)`,
          params: { safe: true },
        })
        return entry
      }
      return url.origin
    })
  })

/** No public key may be an API_KEYS key name, nor take one's name: `/v3/<API_KEYS key>/` must stay a 401. */
export function checkKeyOverlap(env: { API_KEYS: string; PUBLIC_API_KEYS: string }, ctx: z.RefinementCtx): void {
  let names: Set<string>
  let publicKeys: ReturnType<typeof parsePublicKeysText>
  try {
    names = new Set(parseApiKeysText(env.API_KEYS).map((e) => e.key))
    publicKeys = parsePublicKeysText(env.PUBLIC_API_KEYS)
  } catch {
    return // reported by each variable's own schema
  }
  publicKeys.forEach((p, i) => {
    if (names.has(p.key) || (p.name !== undefined && names.has(p.name)))
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_API_KEYS'],
        message: `PUBLIC_API_KEYS entry ${i + 1}: its key or name is an API_KEYS key name`,
        params: { safe: true },
      })
  })
}

/** TRUST_PROXY, parsed (parseTrustProxy); its message names the entry, never an address. */
const TrustProxySchema = z
  .string()
  .optional()
  .transform((s, ctx) => {
    try {
      return parseTrustProxy(s)
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `TRUST_PROXY: ${(err as Error).message}`, params: { safe: true } })
      return z.NEVER
    }
  })

/** The settings the edge middleware reads (also in ServerEnvSchema, so a start validates them with the rest). */
export const EdgeEnvSchema = z.object({
  /** API_KEYS, validated (see parseApiKeysText in lib/auth/api-keys-setting.ts). */
  API_KEYS: ApiKeysSchema,
  /** Keys that need no secret: `key` or `name:key` entries (parsePublicKeysText in lib/auth/public-keys-setting.ts). */
  PUBLIC_API_KEYS: PublicApiKeysSchema,
  /** The keyless tier: the read endpoints and the chain pages without credentials. Default false. */
  PUBLIC_ACCESS: booleanFlag.transform((v) => v ?? false),
  /** Origins whose pages may read the API's answers (CORS): `*`, a list, or undefined (off). */
  CORS_ORIGINS: CorsOriginsSchema,
  /** Bearer token that opens /metrics; unset: /metrics answers 404. At least 16 characters. */
  METRICS_TOKEN: z.string().min(MIN_SECRET_LENGTH, `at least ${MIN_SECRET_LENGTH} characters`).optional(),
  /** Who may ask /readyz: `none` (anyone: load balancers probe without credentials) or `basic` (an API key). */
  READYZ_AUTH: z.enum(['none', 'basic']).default('none'),
  /**
   * The proxies in front whose X-Forwarded-For entries say who the client is (lib/auth/trust-proxy.ts): unset or
   * false (none: the TCP peer is the client), true (one hop), a number of hops, or addresses/CIDR ranges.
   */
  TRUST_PROXY: TrustProxySchema,
  /** Failed authentications per client address per minute before 429 (0 = no limit). */
  AUTH_FAILURE_LIMIT: z.coerce.number().int().min(0).max(100_000).default(10),
})

export type EdgeEnv = z.infer<typeof EdgeEnvSchema>
