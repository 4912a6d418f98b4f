import { z } from 'zod'
import type { ChainFeePolicyOverride } from '../core/chain-rules/chain-policy'
import { DEFAULT_REDIS_TIMEOUT_MS } from '../runtime/redis-timeout.mjs'
import { checkKeyOverlap, EdgeEnvSchema } from './access'
import {
  booleanFlag,
  GweiSettingSchema,
  isLoopbackUrl,
  LogFormatSchema,
  LogLevelSchema,
  PercentSchema,
  RatePolicySchema,
  RpcUrlListSchema,
} from './fields'

/** The service's own settings (upstream, feed, quotas, streams, logs, the store, fee policies), on top of the access settings. */

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

export const ServerEnvSchema = EdgeEnvSchema.extend({
  /** Whether the default chain set gets viem's public RPC URLs. Default true. */
  USE_PUBLIC_RPCS: booleanFlag.transform((v) => v ?? true),
  /** Longest any request waits for the upstream node, ms. */
  RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  /** How long the last good data may be served (marked stale) while the upstream fails, seconds. */
  MAX_STALE_SECONDS: z.coerce.number().int().min(0).max(3_600).default(60),
  /** How old the node's latest block may be before answers are marked stale, seconds; unset: from the block interval; 0: never. */
  MAX_HEAD_AGE_SECONDS: z.coerce.number().int().min(0).max(31_536_000).optional(),
  /** How long a chain stays warm (read on its block timing) after its last request or subscriber, seconds; 0: never. */
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
  /** Concurrent streams one API key or keyless client address may hold, across instances with REDIS_URL; 0: none. */
  STREAM_MAX_PER_KEY: z.coerce.number().int().min(0).max(1_000_000).default(10),
  /** Concurrent streams of every caller together, per instance (docs/operations.md: sized from npm run bench:stream). */
  STREAM_MAX_TOTAL: z.coerce.number().int().min(0).max(1_000_000).default(5_000),
  /** Concurrent keyless streams (PUBLIC_ACCESS) of all addresses together: per instance, and across instances with REDIS_URL. */
  PUBLIC_STREAM_LIMIT: z.coerce.number().int().min(0).max(1_000_000).default(1_000),
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
