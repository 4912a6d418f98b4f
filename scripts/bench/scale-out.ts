import { createClient } from '@redis/client'
import { startCountingProxy } from '../devnet/counting-proxy'
import { startDevnet } from '../devnet/devnet'
import { rpc } from '../devnet/json-rpc'
import { startRedis } from '../devnet/redis'
import { startService, type Service } from '../devnet/service'
import { load, type LoadResult } from './load'

export type ScaleOutRow = {
  setup: string
  instances: number
  load: LoadResult
  newBlocks: number
  /** Upstream HTTP requests (one read = one batch) per new block, all instances together. */
  readsPerBlock: number
  /** Upstream JSON-RPC calls per new block, all instances together. */
  callsPerBlock: number
  /** With Redis: new windows by source (joined / led / local), all instances together, from /metrics. */
  sources?: Record<string, number>
  /** With Redis: commands Redis executed during the run (INFO commandstats), all kinds together. */
  redisCommands?: number
}

const CHAIN = 31337

/** Commands Redis has executed since the last CONFIG RESETSTAT (the reset itself excluded). */
async function redisCommandCount(url: string, reset = false): Promise<number> {
  const c = createClient({ url })
  await c.connect()
  try {
    if (reset) {
      await c.configResetStat()
      return 0
    }
    const info = await c.info('commandstats')
    let sum = 0
    for (const [, command, calls] of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
      if (command !== undefined && !command.startsWith('config') && command !== 'info') sum += Number(calls)
    }
    return sum
  } finally {
    c.destroy()
  }
}
const KEY = 'bench:bench-secret-of-the-bench'
/** /metrics has its own bearer token (METRICS_TOKEN); API keys do not open it. */
const METRICS_TOKEN = 'bench-metrics-token-of-the-bench'

async function metric(service: Service, name: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text()
  const out: Record<string, number> = {}
  for (const [, labels, value] of text.matchAll(new RegExp(`^${name}\\{([^}]*)\\} (\\d+)$`, 'gm'))) {
    if (labels !== undefined) out[labels] = Number(value)
  }
  return out
}

/**
 * Upstream cost of scaling out: one anvil (a block every 2 s) behind a counting proxy, and the
 * same load spread over (a) one instance, (b) two instances on their own, (c) two instances
 * sharing a Redis (REDIS_URL). Each instance gets its own autocannon process.
 */
export async function runScaleOut(opts: { seconds: number; connections: number; log: (s: string) => void }): Promise<ScaleOutRow[]> {
  const devnet = await startDevnet({ chainId: CHAIN, blockTimeSec: 2, seedBlocks: 520, liveTraffic: false })
  const proxy = await startCountingProxy(devnet.url)
  const redis = await startRedis()
  const auth = `Basic ${Buffer.from(KEY).toString('base64')}`
  const headers = { authorization: auth }
  // a finite quota, as every key has by default: with Redis each request is one counter EVAL
  const env = {
    API_KEYS: KEY,
    METRICS_TOKEN,
    RATE_LIMITS: 'bench=999999999/60',
    USE_PUBLIC_RPCS: 'false',
    REQUEST_LOG: 'false',
    [`RPC_URL_${CHAIN}`]: proxy.url,
  }
  const setups: { setup: string; instances: number; redis: boolean }[] = [
    { setup: 'one instance', instances: 1, redis: false },
    { setup: 'two instances, no shared store', instances: 2, redis: false },
    { setup: 'two instances + Redis (REDIS_URL)', instances: 2, redis: true },
  ]
  const rows: ScaleOutRow[] = []
  try {
    for (const s of setups) {
      const services: Service[] = []
      try {
        for (let i = 0; i < s.instances; i++) {
          services.push(await startService({ env: { ...env, ...(s.redis ? { REDIS_URL: redis.url } : {}) } }))
        }
        const urls = services.map((svc) => `${svc.url}/networks/${CHAIN}/suggestedGasFees`)
        await Promise.all(urls.map((url) => load(url, { connections: opts.connections, seconds: 2, headers }))) // warm-up
        const before = await Promise.all(services.map((svc) => metric(svc, 'gas_api_shared_reads_total')))
        const headBefore = Number(await rpc<string>(devnet.url, 'eth_blockNumber'))
        proxy.reset()
        if (s.redis) await redisCommandCount(redis.url, true)
        const results = await Promise.all(urls.map((url) => load(url, { connections: opts.connections, seconds: opts.seconds, headers })))
        const headAfter = Number(await rpc<string>(devnet.url, 'eth_blockNumber'))
        const counts = proxy.counts()
        const redisCommands = s.redis ? await redisCommandCount(redis.url) : undefined
        const after = await Promise.all(services.map((svc) => metric(svc, 'gas_api_shared_reads_total')))
        const newBlocks = Math.max(1, headAfter - headBefore)
        const calls = Object.entries(counts)
          .filter(([k]) => k !== '<http>')
          .reduce((sum, [, v]) => sum + v, 0)
        const sources: Record<string, number> = {}
        after.forEach((m, i) => {
          const previous = before[i]
          if (!previous) throw new Error(`no metrics from instance ${i + 1} before the run`)
          for (const [labels, v] of Object.entries(m)) {
            const source = /source="(\w+)"/.exec(labels)?.[1] ?? labels
            sources[source] = (sources[source] ?? 0) + v - (previous[labels] ?? 0)
          }
        })
        const total: LoadResult = {
          rps: results.reduce((a, r) => a + r.rps, 0),
          p50: Math.max(...results.map((r) => r.p50)),
          p99: Math.max(...results.map((r) => r.p99)),
          errors: results.reduce((a, r) => a + r.errors, 0),
          requests: results.reduce((a, r) => a + r.requests, 0),
        }
        const row: ScaleOutRow = {
          setup: s.setup,
          instances: s.instances,
          load: total,
          newBlocks,
          readsPerBlock: (counts['<http>'] ?? 0) / newBlocks,
          callsPerBlock: calls / newBlocks,
          ...(s.redis ? { sources, redisCommands } : {}),
        }
        rows.push(row)
        opts.log(
          `${s.setup}: ${Math.round(total.rps)} req/s, ${total.errors} errors, ${row.readsPerBlock.toFixed(2)} reads and ${row.callsPerBlock.toFixed(2)} calls per new block (${newBlocks} blocks)`,
        )
      } finally {
        for (const svc of services) await svc.stop().catch(() => {})
      }
    }
    return rows
  } finally {
    for (const stop of [redis.stop, proxy.close, devnet.stop]) await stop().catch(() => {})
  }
}
