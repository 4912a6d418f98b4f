import { z } from 'zod'
import { processSingleton } from './runtime/process-singleton'
import { checkKeyOverlap, EdgeEnvSchema, type EdgeEnv } from './env/access'
import { LogFormatSchema, LogLevelSchema } from './env/fields'
import { ServerEnvSchema, type ServerEnv } from './env/service'

/**
 * The one place that reads process.env, parsed on first use: a misconfiguration fails the request, not the boot.
 * One schema per concern (lib/env/access.ts: who may call; lib/env/service.ts: the rest), joined here.
 */

export type { EdgeEnv, ServerEnv }
export { RpcUrlListSchema } from './env/fields'

/** A configuration value is invalid; the message names the variable, never its value. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

export type EnvSource = Record<string, string | undefined>

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
    STREAM_MAX_TOTAL: source.STREAM_MAX_TOTAL || undefined,
    PUBLIC_STREAM_LIMIT: source.PUBLIC_STREAM_LIMIT || undefined,
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

const edgeMemo = processSingleton('edge-env', () => ({ current: undefined as { source: EnvSource; env: EdgeEnv } | undefined }))

/**
 * Whether the settings stay as first read: in a built server (Next inlines NODE_ENV at build), nothing changes
 * process.env while it runs, and reading it costs each request microseconds per variable; tests and `next dev` read
 * it on every call.
 */
const settled = () => process.env.NODE_ENV === 'production'

/** Whether two sources hold the same values (compared as they are: a JSON key of API_KEYS cost each request a copy of it). */
const sameSource = (a: EnvSource, b: EnvSource) => Object.keys(a).every((k) => a[k] === b[k])

/**
 * The middleware's settings, validated like the server's; static `process.env.X` references, because edge
 * platforms expose only referenced variables.
 * @throws ConfigError
 */
export function getEdgeEnv(): EdgeEnv {
  if (edgeMemo.current && settled()) return edgeMemo.current.env
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
  if (edgeMemo.current && sameSource(edgeMemo.current.source, source)) return edgeMemo.current.env
  const result = EdgeEnvSchema.superRefine(checkKeyOverlap).safeParse(edgeInput(source))
  if (!result.success) throw configError(result.error)
  edgeMemo.current = { source, env: result.data }
  return result.data
}

/**
 * What decides which callers exist (API_KEYS, PUBLIC_API_KEYS, PUBLIC_ACCESS), unparsed, for the handlers'
 * identity check (lib/auth/identity.ts); static references, as getEdgeEnv. A malformed value names no caller.
 */
export function getIdentitySetting(): { apiKeys: string; publicApiKeys: string; publicAccess: boolean } {
  if (identityMemo.current && settled()) return identityMemo.current
  const flag = process.env.PUBLIC_ACCESS
  return (identityMemo.current = Object.freeze({
    apiKeys: process.env.API_KEYS ?? '',
    publicApiKeys: process.env.PUBLIC_API_KEYS ?? '',
    publicAccess: flag === 'true' || flag === '1',
  }))
}
const identityMemo = processSingleton('identity-setting', () => ({
  current: undefined as ReturnType<typeof getIdentitySetting> | undefined,
}))
