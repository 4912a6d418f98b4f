import { z } from 'zod'
import type { ChainFeePolicyOverride } from './core/chain-rules/chain-policy'
import { processSingleton } from './runtime/process-singleton'
import { DEFAULT_REDIS_TIMEOUT_MS } from './runtime/redis-timeout.mjs'
import { parseGwei } from './core/units'
import { ApiKeysSchema, MIN_SECRET_LENGTH, parseApiKeysText } from './auth/api-keys-setting'
import { parsePublicKeysText } from './auth/public-keys-setting'

/** The one place that reads process.env, parsed on first use: a misconfiguration fails the request, not the boot. */

/** A configuration value is invalid; the message names the variable, never its value. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

export type EnvSource = Record<string, string | undefined>

const booleanFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => (v === undefined || v === '' ? undefined : v === 'true' || v === '1'))

/** The longest rate-limit window: one week, in seconds. */
const MAX_RATE_WINDOW_SECONDS = 604_800

/** `<requests>/<seconds>`, e.g. `1200/60`; `0` disables the limit. */
const RatePolicySchema = z
  .string()
  .regex(/^(0|[1-9]\d{0,8}\/[1-9]\d{0,5})$/, 'requests/seconds, e.g. 1200/60, or 0')
  .transform((s) => {
    const [limit, seconds] = s.split('/')
    return { limit: Number(limit), windowSeconds: Number(seconds ?? 1) }
  })
  // Node's timers reach 24.8 days and a window's anchor lives 3 windows (lib/ratelimit/counters.ts)
  .refine((p) => p.windowSeconds <= MAX_RATE_WINDOW_SECONDS, `a window of at most ${MAX_RATE_WINDOW_SECONDS} seconds (a week)`)

/** pino's levels, least severe last written: `LOG_LEVEL=warn` drops the request lines (info). */
const LogLevelSchema = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')

/** How log lines are written: one JSON object per line (default), or pino-pretty's human-readable lines. */
const LogFormatSchema = z.enum(['json', 'pretty']).default('json')

/** One variable parsed alone; an invalid value gives the schema's default (getServerEnv refuses it at start). */
function alone<S extends z.ZodType>(schema: S, fallback: z.output<S>) {
  return (value: string | undefined): z.output<S> => {
    const result = schema.safeParse(value || undefined)
    return result.success ? result.data : fallback
  }
}
const logFormat = alone(LogFormatSchema, 'json')
const logLevel = alone(LogLevelSchema, 'info')

/** LOG_FORMAT alone, for the logger. */
export function getLogFormat(source: EnvSource = process.env): z.infer<typeof LogFormatSchema> {
  return logFormat(source.LOG_FORMAT)
}

/** LOG_LEVEL alone, for the logger, which must work (and log) while the rest of the configuration is refused. */
export function getLogLevel(source: EnvSource = process.env): z.infer<typeof LogLevelSchema> {
  return logLevel(source.LOG_LEVEL)
}

/** A comma-separated list of http(s) URLs (an RPC_URL_<chainId> value). */
export const RpcUrlListSchema = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((u) => u.trim())
      .filter((u) => u.length > 0),
  )
  .pipe(z.array(z.url({ protocol: /^https?$/ })).min(1, 'at least one http(s) URL'))

/** Whether a URL's host is this machine (127.0.0.0/8, ::1, localhost): plain http cannot leak there. */
function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.toLowerCase()
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host)
}

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
function checkKeyOverlap(env: { API_KEYS: string; PUBLIC_API_KEYS: string }, ctx: z.RefinementCtx): void {
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

/** The settings the edge middleware reads (also in ServerEnvSchema, so a start validates them with the rest). */
const EdgeEnvSchema = z.object({
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
  /** Whether a proxy in front sets X-Forwarded-For: the client address is then its last entry. Default false. */
  TRUST_PROXY: booleanFlag.transform((v) => v ?? false),
  /** Failed authentications per client address per minute before 429 (0 = no limit). */
  AUTH_FAILURE_LIMIT: z.coerce.number().int().min(0).max(100_000).default(10),
})

export type EdgeEnv = z.infer<typeof EdgeEnvSchema>

/** A decimal gwei setting, as wei; unlike the API's GweiSchema it accepts trailing zeros ("30.0"). */
const GweiSettingSchema = z
  .string()
  .regex(/^(0|[1-9]\d{0,17})(\.\d{1,9})?$/, 'a decimal gwei amount, e.g. "30" or "0.001"')
  .transform(parseGwei)
const PercentSchema = z
  .number()
  .min(0)
  .max(100)
  .transform((p) => BigInt(Math.round(p * 10_000)))

/**
 * Overrides of the chain fee policy table (lib/core/chain-rules/chain-policy.ts), as JSON keyed by chain id:
 * `{"137":{"minPriorityFeeGwei":"30"}}`. Fields: minPriorityFeeGwei, minSuggestedPriorityFeeGwei,
 * ignoresTips, maxBaseFeeRisePercent, maxBaseFeeFallPercent, enforceBaseFeeBounds, tipWindowSeconds.
 */
const ChainFeePoliciesSchema = z
  .string()
  .transform((s, ctx) => {
    try {
      return JSON.parse(s) as unknown
    } catch {
      ctx.addIssue({ code: 'custom', message: 'not JSON' })
      return z.NEVER
    }
  })
  .pipe(
    z.record(
      z.string().regex(/^[1-9]\d{0,15}$/),
      z
        .object({
          minPriorityFeeGwei: GweiSettingSchema.optional(),
          minSuggestedPriorityFeeGwei: GweiSettingSchema.optional(),
          ignoresTips: z.boolean().optional(),
          maxBaseFeeRisePercent: PercentSchema.optional(),
          maxBaseFeeFallPercent: PercentSchema.optional(),
          enforceBaseFeeBounds: z.boolean().optional(),
          tipWindowSeconds: z.number().int().min(1).max(86_400).optional(),
        })
        .strict()
        .transform(
          (o) =>
            Object.fromEntries(
              Object.entries({
                minPriorityFeeWei: o.minPriorityFeeGwei,
                minSuggestedPriorityFeeWei: o.minSuggestedPriorityFeeGwei,
                ignoresTips: o.ignoresTips,
                maxBaseFeeRisePpm: o.maxBaseFeeRisePercent,
                maxBaseFeeFallPpm: o.maxBaseFeeFallPercent,
                enforceBaseFeeBounds: o.enforceBaseFeeBounds,
                tipWindowMs: o.tipWindowSeconds === undefined ? undefined : o.tipWindowSeconds * 1000,
              }).filter(([, v]) => v !== undefined),
            ) as ChainFeePolicyOverride,
        ),
    ),
  )

const ServerEnvSchema = EdgeEnvSchema.extend({
  /** Whether the default chain set gets viem's public RPC URLs. Default true. */
  USE_PUBLIC_RPCS: booleanFlag.transform((v) => v ?? true),
  /** Longest any request waits for the upstream node, ms. */
  RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  /** How long the last good data may be served (marked stale) while the upstream fails, seconds. */
  MAX_STALE_SECONDS: z.coerce.number().int().min(0).max(3_600).default(60),
  /** How old the node's latest block may be before answers are marked stale, seconds; unset: from the block interval; 0: never. */
  MAX_HEAD_AGE_SECONDS: z.coerce.number().int().min(0).max(31_536_000).optional(),
  /**
   * How long a chain stays warm (read on its block timing) after its last request or subscriber, seconds;
   * 0: never warm, each request past its window's next read waits up to FEED_WAIT_MS.
   */
  FEED_WARM_SECONDS: z.coerce.number().int().min(0).max(86_400).default(180),
  /** Longest a request waits for its window's due read before it is answered from the older window, ms. */
  FEED_WAIT_MS: z.coerce.number().int().min(0).max(10_000).default(1_000),
  /** Default quota per API key. */
  RATE_LIMIT: RatePolicySchema.default({ limit: 1200, windowSeconds: 60 }),
  /** Quota of the keyless tier (PUBLIC_ACCESS), per client address. */
  PUBLIC_RATE_LIMIT: RatePolicySchema.default({ limit: 600, windowSeconds: 60 }),
  /** Per-key quotas: `key=requests/seconds` entries, comma-separated. */
  RATE_LIMITS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^.+=(0|[1-9]\d{0,8}\/[1-9]\d{0,5})$/, 'key=requests/seconds')))
    .transform((entries, ctx) =>
      Object.fromEntries(
        entries.map((e) => {
          const i = e.lastIndexOf('=')
          const policy = RatePolicySchema.safeParse(e.slice(i + 1))
          if (!policy.success) ctx.addIssue({ code: 'custom', message: 'a window of at most a week' })
          return [e.slice(0, i), policy.success ? policy.data : { limit: 0, windowSeconds: 1 }]
        }),
      ),
    ),
  /** Concurrent streams (GET /networks/{chainId}/stream) one API key may hold per instance; 0: none. */
  STREAM_MAX_PER_KEY: z.coerce.number().int().min(0).max(1_000_000).default(10),
  /** Longest a stream stays open before the server ends it and the client reconnects, seconds (the stream route's maxDuration is 300). */
  STREAM_MAX_SECONDS: z.coerce.number().int().min(1).max(86_400).default(280),
  /** Seconds between heartbeat comments on an idle stream. */
  STREAM_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(300).default(15),
  /** Bytes a stream may have waiting for a slow client before the client is dropped. */
  STREAM_BUFFER_BYTES: z.coerce.number().int().min(1_024).max(67_108_864).default(262_144),
  /** One JSON log line per API request (default true). */
  REQUEST_LOG: booleanFlag.transform((v) => v ?? true),
  /** The least severe log line written (pino levels; default info, silent writes none). */
  LOG_LEVEL: LogLevelSchema,
  /** json (default) or pretty. */
  LOG_FORMAT: LogFormatSchema,
  /** Shared store for several instances (cache, single-flight lock, rate limits); unset: one instance, in memory. */
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  /** Longest any Redis command is waited for before the instance falls back to its own memory, ms. */
  REDIS_TIMEOUT_MS: z.coerce.number().int().min(10).max(10_000).default(DEFAULT_REDIS_TIMEOUT_MS),
  /** chainId → overrides of that chain's fee policy row (CHAIN_FEE_POLICIES, JSON). */
  CHAIN_FEE_POLICIES: ChainFeePoliciesSchema.default({}),
  /** Plain http:// RPC URLs to other hosts than this one (provider keys travel in URLs). Default false. */
  ALLOW_INSECURE_RPC: booleanFlag.transform((v) => v ?? false),
  /** chainId → RPC URLs, from every RPC_URL_<chainId> variable. */
  rpcUrls: z.record(z.string().regex(/^[1-9]\d{0,15}$/), RpcUrlListSchema),
}).superRefine((env, ctx) => {
  checkKeyOverlap(env, ctx)
  if (env.ALLOW_INSECURE_RPC) return
  for (const [chainId, urls] of Object.entries(env.rpcUrls)) {
    if (urls.some((u) => u.startsWith('http://') && !isLoopbackUrl(u))) {
      ctx.addIssue({
        code: 'custom',
        path: ['rpcUrls', chainId],
        message: `RPC_URL_${chainId} holds a plain http:// URL to another host (provider keys would travel unencrypted); use https:// or set ALLOW_INSECURE_RPC=true`,
        params: { safe: true },
      })
    }
  }
})

export type ServerEnv = z.infer<typeof ServerEnvSchema>

const memo = processSingleton('server-env', () => ({ current: undefined as { source: EnvSource; env: ServerEnv } | undefined }))

/** The validated server environment (memoised per process.env object). */
export function getServerEnv(source: EnvSource = process.env): ServerEnv {
  const cached = memo.current
  if (cached?.source === source) return cached.env
  const rpcUrls: Record<string, string> = {}
  for (const [name, value] of Object.entries(source)) {
    const chainId = /^RPC_URL_(\d+)$/.exec(name)?.[1]
    if (chainId !== undefined && value !== undefined && value.trim() !== '') rpcUrls[chainId] = value
  }
  const result = ServerEnvSchema.safeParse({
    ...edgeInput(source),
    USE_PUBLIC_RPCS: source.USE_PUBLIC_RPCS,
    RPC_TIMEOUT_MS: source.RPC_TIMEOUT_MS || undefined,
    MAX_STALE_SECONDS: source.MAX_STALE_SECONDS || undefined,
    MAX_HEAD_AGE_SECONDS: source.MAX_HEAD_AGE_SECONDS || undefined,
    FEED_WARM_SECONDS: source.FEED_WARM_SECONDS || undefined,
    FEED_WAIT_MS: source.FEED_WAIT_MS || undefined,
    RATE_LIMIT: source.RATE_LIMIT || undefined,
    PUBLIC_RATE_LIMIT: source.PUBLIC_RATE_LIMIT || undefined,
    RATE_LIMITS: source.RATE_LIMITS || undefined,
    REDIS_URL: source.REDIS_URL || undefined,
    REDIS_TIMEOUT_MS: source.REDIS_TIMEOUT_MS || undefined,
    REQUEST_LOG: source.REQUEST_LOG,
    LOG_LEVEL: source.LOG_LEVEL || undefined,
    LOG_FORMAT: source.LOG_FORMAT || undefined,
    STREAM_MAX_PER_KEY: source.STREAM_MAX_PER_KEY || undefined,
    STREAM_MAX_SECONDS: source.STREAM_MAX_SECONDS || undefined,
    STREAM_HEARTBEAT_SECONDS: source.STREAM_HEARTBEAT_SECONDS || undefined,
    STREAM_BUFFER_BYTES: source.STREAM_BUFFER_BYTES || undefined,
    CHAIN_FEE_POLICIES: source.CHAIN_FEE_POLICIES || undefined,
    ALLOW_INSECURE_RPC: source.ALLOW_INSECURE_RPC,
    rpcUrls,
  })
  if (!result.success) throw configError(result.error)
  memo.current = { source, env: result.data }
  return result.data
}

const edgeInput = (source: EnvSource) => ({
  API_KEYS: source.API_KEYS,
  PUBLIC_API_KEYS: source.PUBLIC_API_KEYS,
  PUBLIC_ACCESS: source.PUBLIC_ACCESS,
  CORS_ORIGINS: source.CORS_ORIGINS || undefined,
  METRICS_TOKEN: source.METRICS_TOKEN || undefined,
  READYZ_AUTH: source.READYZ_AUTH || undefined,
  TRUST_PROXY: source.TRUST_PROXY,
  AUTH_FAILURE_LIMIT: source.AUTH_FAILURE_LIMIT || undefined,
})

/** The error for failed validation: names the variables, never their values, plus our own messages marked safe. */
function configError(error: z.ZodError): ConfigError {
  const where = error.issues.map((i) => (i.path[0] === 'rpcUrls' ? `RPC_URL_${String(i.path[1])}` : String(i.path[0])))
  const details = error.issues.flatMap((i) =>
    i.code === 'custom' && (i.params as { safe?: boolean } | undefined)?.safe ? [i.message] : [],
  )
  return new ConfigError(`Invalid configuration in ${[...new Set(where)].join(', ')}${details.length ? `: ${details.join('; ')}` : ''}`)
}

const edgeMemo = processSingleton('edge-env', () => ({ current: undefined as { key: string; env: EdgeEnv } | undefined }))

/**
 * The middleware's settings, validated like the server's; static `process.env.X` references, because edge
 * platforms expose only referenced variables.
 * @throws ConfigError
 */
export function getEdgeEnv(): EdgeEnv {
  const source: EnvSource = {
    API_KEYS: process.env.API_KEYS,
    PUBLIC_API_KEYS: process.env.PUBLIC_API_KEYS,
    PUBLIC_ACCESS: process.env.PUBLIC_ACCESS,
    CORS_ORIGINS: process.env.CORS_ORIGINS,
    METRICS_TOKEN: process.env.METRICS_TOKEN,
    READYZ_AUTH: process.env.READYZ_AUTH,
    TRUST_PROXY: process.env.TRUST_PROXY,
    AUTH_FAILURE_LIMIT: process.env.AUTH_FAILURE_LIMIT,
  }
  const key = JSON.stringify(source)
  if (edgeMemo.current?.key === key) return edgeMemo.current.env
  const result = EdgeEnvSchema.superRefine(checkKeyOverlap).safeParse(edgeInput(source))
  if (!result.success) throw configError(result.error)
  edgeMemo.current = { key, env: result.data }
  return result.data
}

/**
 * What decides which callers exist (API_KEYS, PUBLIC_API_KEYS, PUBLIC_ACCESS), unparsed, for the handlers'
 * identity check (lib/auth/identity.ts); static references, as getEdgeEnv. A malformed value names no caller.
 */
export function getIdentitySetting(): { apiKeys: string; publicApiKeys: string; publicAccess: boolean } {
  const flag = process.env.PUBLIC_ACCESS
  return {
    apiKeys: process.env.API_KEYS ?? '',
    publicApiKeys: process.env.PUBLIC_API_KEYS ?? '',
    publicAccess: flag === 'true' || flag === '1',
  }
}
