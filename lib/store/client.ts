import 'server-only'
import { createClient, type RedisClientType } from '@redis/client'
import { getServerEnv } from '../env'
import { processSingleton } from '../runtime/process-singleton'
import { withDeadline } from '../runtime/deadline'
import { UNAVAILABLE, type Unavailable } from '../runtime/unavailable'
import { logger } from '../log/logger'

/** What a shared-store call returns when the store is not configured, not connected or failing. */

/** After a command fails or times out, the store is not asked again for this long (ms). */
const RETRY_AFTER_FAILURE_MS = 1_000

type StoreState = {
  client?: RedisClientType
  /** The first connection (pending while the client retries), which the first commands wait for ... */
  connecting?: Promise<unknown>
  /** ... until this time (creation + REDIS_TIMEOUT_MS), ms since the epoch. */
  connectWaitUntil: number
  /** Whether the last command succeeded; transitions are logged once each. */
  up?: boolean
  downUntil: number
}

const state = processSingleton('redis', (): StoreState => ({ downUntil: 0, connectWaitUntil: 0 }))

function log(level: 'warn' | 'info', msg: string, err?: unknown) {
  // only the error's name and code: messages and causes can carry the host or, with some
  // providers, credentials from REDIS_URL
  const e = err as { name?: string; code?: string } | undefined
  logger()[level]({ error: e?.name, code: e?.code }, msg)
}

function markDown(err: unknown) {
  state.downUntil = Date.now() + RETRY_AFTER_FAILURE_MS
  if (state.up !== false) {
    state.up = false
    log('warn', 'shared store unavailable: this instance serves from its own memory and the upstream', err)
  }
}

function markUp() {
  if (state.up !== true) {
    if (state.up === false) log('info', 'shared store reachable again: shared mode')
    state.up = true
  }
}

function client(url: string, timeoutMs: number): RedisClientType {
  if (!state.client) {
    state.connectWaitUntil = Date.now() + timeoutMs
    const c: RedisClientType = createClient({
      url,
      // commands fail at once while disconnected instead of queueing behind the reconnect
      disableOfflineQueue: true,
      socket: { connectTimeout: 1_000, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 1_000) },
    })
    // an unhandled 'error' event would crash the process; the client reconnects by itself
    c.on('error', markDown)
    c.on('ready', markUp)
    // pending until the first connection succeeds (the client keeps retrying meanwhile)
    state.connecting = c.connect().catch(markDown)
    state.client = c
  }
  return state.client
}

/** Runs one command (or a few) against the shared store within REDIS_TIMEOUT_MS. */
export async function withSharedStore<T>(
  command: (redis: RedisClientType) => Promise<T>,
  opts: { evenIfDegraded?: boolean } = {},
): Promise<T | Unavailable> {
  const env = getServerEnv()
  if (!env.REDIS_URL) return UNAVAILABLE
  const redis = client(env.REDIS_URL, env.REDIS_TIMEOUT_MS)
  try {
    // the instance's first commands wait (once, briefly) for the first connection; after that a
    // client that is not connected is skipped at once
    const wait = state.connectWaitUntil - Date.now()
    if (!redis.isReady && wait > 0) await withDeadline(state.connecting!, wait).catch(() => {})
    // a clean-up (a lock release) is sent even within the degraded second, if connected
    if (!redis.isReady || (Date.now() < state.downUntil && !opts.evenIfDegraded)) return UNAVAILABLE
    const result = await withDeadline(command(redis), env.REDIS_TIMEOUT_MS, () =>
      Object.assign(new Error('Redis did not answer in time'), { name: 'RedisTimeoutError' }),
    )
    markUp()
    return result
  } catch (err) {
    markDown(err)
    return UNAVAILABLE
  }
}

/** The Redis client (created and connecting on first use), for libraries that run their own commands; REDIS_URL must be set. */
export function sharedStoreClient(): RedisClientType {
  const env = getServerEnv()
  if (!env.REDIS_URL) throw new Error('sharedStoreClient() without REDIS_URL')
  return client(env.REDIS_URL, env.REDIS_TIMEOUT_MS)
}

/** Whether this instance is degraded (Redis not connected, or a command failed within a second): callers use their own memory. */
export function sharedStoreDegraded(): boolean {
  const redis = sharedStoreClient()
  return !redis.isReady || Date.now() < state.downUntil
}

/** A command of such a library failed or timed out: degraded mode for a second, as for our own commands. */
export function reportSharedStoreFailure(err: unknown): void {
  markDown(err)
}

/** 1 when this instance is in shared mode, 0 when degraded; undefined without REDIS_URL. */
export function sharedStoreUp(): number | undefined {
  const env = getServerEnv()
  if (!env.REDIS_URL) return undefined
  const redis = client(env.REDIS_URL, env.REDIS_TIMEOUT_MS)
  return redis.isReady && state.up !== false && Date.now() >= state.downUntil ? 1 : 0
}
