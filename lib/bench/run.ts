import { createServer } from 'node:http'
import { startCountingProxy } from '../devnet/counting-proxy'
import { startDevnet } from '../devnet/devnet'
import { rpc } from '../devnet/json-rpc'
import { startService } from '../devnet/service'
import { load, type LoadResult } from './load'

export type BenchRow = LoadResult & {
  target: string
  connections: number
  /** JSON-RPC calls upstream per new block during the run (endpoints only). */
  callsPerBlock?: number
  newBlocks?: number
}

export type BenchReport = {
  rows: BenchRow[]
  cold: { latencyMs: number; upstreamRequests: number; upstreamCalls: number }
}

const ENDPOINTS = ['suggestedGasFees', 'busyThreshold', 'baseFeePercentile', 'baseFeeHistory']

/**
 * The benchmark: an anvil devnet (seeded with traffic, producing a block every 2 s) behind a counting proxy, `next start`
 * against it, a bare node:http server returning the same bytes as suggestedGasFees (the machine's
 * limit) and /bench-floor (a constant Next route behind the same middleware: the framework's floor).
 * Each target is loaded with autocannon at each connection count after a warm-up.
 */
export async function runBench(opts: { seconds: number; connections: number[]; log: (s: string) => void }): Promise<BenchReport> {
  // anvil keeps producing a block every 2 s; the seeded history carries the traffic, and live
  // transaction traffic (hundreds of JSON-RPC calls a block) would compete for the same two cores
  const devnet = await startDevnet({ chainId: 31337, blockTimeSec: 2, seedBlocks: 520, liveTraffic: false })
  const cold = await startDevnet({ chainId: 31338, blockTimeSec: 2, seedBlocks: 40, liveTraffic: false })
  const proxy = await startCountingProxy(devnet.url)
  const coldProxy = await startCountingProxy(cold.url)
  const auth = `Basic ${Buffer.from('bench:bench-secret').toString('base64')}`
  const service = await startService({
    env: {
      API_KEYS: 'bench:bench-secret',
      RATE_LIMITS: 'bench=0',
      USE_PUBLIC_RPCS: 'false',
      REQUEST_LOG: 'false',
      BENCH_FLOOR: 'true',
      RPC_URL_31337: proxy.url,
      RPC_URL_31338: coldProxy.url,
    },
  })
  const stops = [service.stop, proxy.close, coldProxy.close, cold.stop, devnet.stop]
  try {
    const headers = { authorization: auth }
    // cold start: the first request for a chain nobody asked for yet
    coldProxy.reset()
    const t0 = performance.now()
    const first = await fetch(`${service.url}/networks/31338/suggestedGasFees`, { headers })
    const latencyMs = performance.now() - t0
    if (!first.ok) throw new Error(`cold request failed: ${first.status}`)
    const cc = coldProxy.counts()
    const coldResult = { latencyMs, upstreamRequests: cc['<http>'] ?? 0, upstreamCalls: Object.entries(cc).filter(([k]) => k !== '<http>').reduce((s, [, v]) => s + v, 0) }

    const sample = Buffer.from(await (await fetch(`${service.url}/networks/31337/suggestedGasFees`, { headers })).arrayBuffer())
    const bare = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(sample)
    })
    await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r))
    stops.unshift(() => new Promise<void>((r) => bare.close(() => r())))
    const bareUrl = `http://127.0.0.1:${(bare.address() as { port: number }).port}/`

    const targets: [string, string][] = [
      ['node:http (machine limit)', bareUrl],
      ['next constant (framework floor)', `${service.url}/bench-floor`],
      ...ENDPOINTS.map((e): [string, string] => [e, `${service.url}/networks/31337/${e}`]),
    ]
    const rows: BenchRow[] = []
    for (const connections of opts.connections) {
      for (const [target, url] of targets) {
        await load(url, { connections, seconds: 1, headers }) // warm-up
        const isEndpoint = ENDPOINTS.includes(target)
        const headBefore = Number(await rpc<string>(devnet.url, 'eth_blockNumber'))
        proxy.reset()
        const r = await load(url, { connections, seconds: opts.seconds, headers })
        const headAfter = Number(await rpc<string>(devnet.url, 'eth_blockNumber'))
        const calls = Object.entries(proxy.counts()).filter(([k]) => k !== '<http>').reduce((s, [, v]) => s + v, 0)
        const newBlocks = headAfter - headBefore
        const row: BenchRow = { target, connections, ...r, ...(isEndpoint ? { newBlocks, callsPerBlock: newBlocks > 0 ? calls / newBlocks : calls } : {}) }
        rows.push(row)
        opts.log(`${target} @${connections}: ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.errors} errors${row.callsPerBlock !== undefined ? `, ${row.callsPerBlock.toFixed(2)} calls/block` : ''}`)
      }
    }
    return { rows, cold: coldResult }
  } finally {
    for (const stop of stops) await stop().catch(() => {})
  }
}
