import { z } from 'zod'
import type { ChainFeePolicyOverride } from './core/chain-policy'
import { processSingleton } from './core/process-singleton'

/**
 * The one place that reads process.env. Values are parsed on first use (never at import time),
 * so a misconfiguration is a clear error on the request that needs the value, not a crash at boot.
 */

const booleanFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => (v === undefined || v === '' ? undefined : v === 'true' || v === '1'))

/** `<requests>/<seconds>`, e.g. `1200/60`; `0` disables the limit. */
const RatePolicySchema = z
  .string()
  .regex(/^(0|[1-9]\d{0,8}\/[1-9]\d{0,5})$/, 'requests/seconds, e.g. 1200/60, or 0')
  .transform((s) => {
    const [limit, seconds] = s.split('/')
    return { limit: Number(limit), windowSeconds: Number(seconds ?? 1) }
  })

const RpcUrlListSchema = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((u) => u.trim())
      .filter((u) => u.length > 0),
  )
  .pipe(z.array(z.url({ protocol: /^https?$/ })).min(1, 'at least one http(s) URL'))

/** A decimal gwei amount (at most 9 fractional digits), as wei. */
const GweiSchema = z
  .string()
  .regex(/^(0|[1-9]\d{0,17})(\.\d{1,9})?$/, 'a decimal gwei amount, e.g. "30" or "0.001"')
  .transform((g) => {
    const [whole = '0', fraction = ''] = g.split('.')
    return BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, '0'))
  })
const PercentSchema = z
  .number()
  .min(0)
  .max(100)
  .transform((p) => BigInt(Math.round(p * 10_000)))

/**
 * Overrides of the chain fee policy table (lib/core/chain-policy.ts), as JSON keyed by chain id:
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
          minPriorityFeeGwei: GweiSchema.optional(),
          minSuggestedPriorityFeeGwei: GweiSchema.optional(),
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

export const ServerEnvSchema = z.object({
  /** Comma-separated `key:secret` or `key:sha256:<hex>` entries (see lib/auth). */
  API_KEYS: z.string().default(''),
  /** Whether the default chain set gets viem's public RPC URLs. Default true. */
  USE_PUBLIC_RPCS: booleanFlag.transform((v) => v ?? true),
  /** Longest any request waits for the upstream node, ms. */
  RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  /** How long the last good data may be served (marked stale) while the upstream fails, seconds. */
  MAX_STALE_SECONDS: z.coerce.number().int().min(0).max(3_600).default(60),
  /**
   * How old the node's latest block may be (wall clock − block timestamp) before answers are marked
   * stale, seconds; unset: max(60, 10 × the measured block interval); 0: never (recorded test chains).
   */
  MAX_HEAD_AGE_SECONDS: z.coerce.number().int().min(0).max(31_536_000).optional(),
  /** Default quota per API key. */
  RATE_LIMIT: RatePolicySchema.default({ limit: 1200, windowSeconds: 60 }),
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
    .transform((entries) =>
      Object.fromEntries(
        entries.map((e) => {
          const i = e.lastIndexOf('=')
          return [e.slice(0, i), RatePolicySchema.parse(e.slice(i + 1))]
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
  /**
   * Shared store for several instances (redis:// or rediss://): Next's cache handler, the
   * cross-instance single-flight lock and the rate-limit counters. Unset: one instance, in memory.
   */
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  /** Longest any Redis command is waited for before the instance falls back to its own memory, ms. */
  REDIS_TIMEOUT_MS: z.coerce.number().int().min(10).max(10_000).default(250),
  /** chainId → overrides of that chain's fee policy row (CHAIN_FEE_POLICIES, JSON). */
  CHAIN_FEE_POLICIES: ChainFeePoliciesSchema.default({}),
  /** chainId → RPC URLs, from every RPC_URL_<chainId> variable. */
  rpcUrls: z.record(z.string().regex(/^[1-9]\d{0,15}$/), RpcUrlListSchema),
})

export type ServerEnv = z.infer<typeof ServerEnvSchema>

/** A configuration value is invalid; the message names the variable, never its value. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

type EnvSource = Record<string, string | undefined>

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
    API_KEYS: source.API_KEYS,
    USE_PUBLIC_RPCS: source.USE_PUBLIC_RPCS,
    RPC_TIMEOUT_MS: source.RPC_TIMEOUT_MS || undefined,
    MAX_STALE_SECONDS: source.MAX_STALE_SECONDS || undefined,
    MAX_HEAD_AGE_SECONDS: source.MAX_HEAD_AGE_SECONDS || undefined,
    RATE_LIMIT: source.RATE_LIMIT || undefined,
    RATE_LIMITS: source.RATE_LIMITS || undefined,
    REDIS_URL: source.REDIS_URL || undefined,
    REDIS_TIMEOUT_MS: source.REDIS_TIMEOUT_MS || undefined,
    REQUEST_LOG: source.REQUEST_LOG,
    STREAM_MAX_PER_KEY: source.STREAM_MAX_PER_KEY || undefined,
    STREAM_MAX_SECONDS: source.STREAM_MAX_SECONDS || undefined,
    STREAM_HEARTBEAT_SECONDS: source.STREAM_HEARTBEAT_SECONDS || undefined,
    STREAM_BUFFER_BYTES: source.STREAM_BUFFER_BYTES || undefined,
    CHAIN_FEE_POLICIES: source.CHAIN_FEE_POLICIES || undefined,
    rpcUrls,
  })
  if (!result.success) {
    const where = result.error.issues.map((i) => (i.path[0] === 'rpcUrls' ? `RPC_URL_${String(i.path[1])}` : String(i.path[0])))
    throw new ConfigError(`Invalid configuration in ${[...new Set(where)].join(', ')}`)
  }
  memo.current = { source, env: result.data }
  return result.data
}

/**
 * API_KEYS alone, for the edge middleware. A static `process.env.API_KEYS` reference is used so
 * that edge platforms that only expose referenced variables still provide it.
 */
export function getApiKeysSetting(): string {
  return process.env.API_KEYS ?? ''
}

export const DemoEnvSchema = z.object({
  /** Port `npm run demo` serves on. */
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  /** The demo API key's secret; random when unset. */
  DEMO_API_SECRET: z.string().min(1).optional(),
})

/** The demo script's settings (PORT, DEMO_API_SECRET), validated like the server's. */
export function getDemoEnv(source: EnvSource = process.env) {
  const result = DemoEnvSchema.safeParse({ PORT: source.PORT || undefined, DEMO_API_SECRET: source.DEMO_API_SECRET || undefined })
  if (!result.success)
    throw new ConfigError(`Invalid configuration in ${[...new Set(result.error.issues.map((i) => String(i.path[0])))].join(', ')}`)
  return result.data
}
