import { createServer } from 'node:http'
import { startCountingProxy } from '../devnet/counting-proxy'
import { startDevnet } from '../devnet/devnet'
import { rpc } from '../devnet/json-rpc'
import { startService } from '../devnet/service'
import { load, type LoadResult } from './load'

export type BenchRow = LoadResult & {
  target: string
  connections: number
  /** JSON-RPC calls upstream per new block over all rounds (endpoints only). */
  callsPerBlock?: number
  /** The worst round's calls per new block. */
  worstCallsPerBlock?: number
  newBlocks?: number
  /** Medians over the rounds of this target's req/s and p99 divided by the floor's in the same round. */
  rpsVsFloor?: number
  /** Median over the rounds of this target's req/s divided by Next's floor with no middleware (BARE_FLOOR). */
  rpsVsBare?: number
  p99VsFloor?: number
  rounds: number
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  const upper = s[m]
  if (upper === undefined) throw new Error('median of no values (no rounds?)')
  if (s.length % 2) return upper
  const lower = s[m - 1]
  if (lower === undefined) throw new Error(`median: no value at ${m - 1} of ${s.length}`)
  return (lower + upper) / 2
}

export type BenchReport = {
  rows: BenchRow[]
  cold: { latencyMs: number; upstreamRequests: number; upstreamCalls: number }
}

const ENDPOINTS = ['suggestedGasFees', 'busyThreshold', 'baseFeePercentile', 'baseFeeHistory']
const SLOW = 'suggestedGasFees, provider answering in 3 s'
/** Next's own floor: the constant route with a dynamic segment, outside the middleware's matcher (/bench-bare). */
const BARE_FLOOR = 'next constant, dynamic segment, no middleware (Next floor)'

/**
 * The benchmark: an anvil devnet (seeded with traffic, producing a block every 2 s) behind a counting proxy, `next start`
 * against it, a bare node:http server returning the same bytes as suggestedGasFees (the machine's
 * limit), /bench-floor/31337 (a constant Next route with a dynamic segment behind the same
 * middleware), /bench-floor (the same without the dynamic segment) and /bench-bare/31337 (the
 * dynamic-segment constant outside the middleware: Next's own floor).
 * Each target is loaded with autocannon at each connection count after a warm-up.
 */
export async function runBench(opts: {
  seconds: number
  connections: number[]
  rounds: number
  log: (s: string) => void
  /** A bench build of the same checkout with middleware.ts on the Edge runtime (./edge-build.ts): its gate is measured too. */
  edgeDir?: string
}): Promise<BenchReport> {
  // anvil keeps producing a block every 2 s; the seeded history carries the traffic, and live
  // transaction traffic (hundreds of JSON-RPC calls a block) would compete for the same two cores
  const devnet = await startDevnet({ chainId: 31337, blockTimeSec: 2, seedBlocks: 520, liveTraffic: false })
  const cold = await startDevnet({ chainId: 31338, blockTimeSec: 2, seedBlocks: 40, liveTraffic: false })
  const proxy = await startCountingProxy(devnet.url)
  const coldProxy = await startCountingProxy(cold.url)
  const auth = `Basic ${Buffer.from('bench:bench-secret-of-the-bench').toString('base64')}`
  const env = {
    API_KEYS: 'bench:bench-secret-of-the-bench',
    RATE_LIMITS: 'bench=0',
    USE_PUBLIC_RPCS: 'false',
    REQUEST_LOG: 'false',
    RPC_URL_31337: proxy.url,
    RPC_URL_31338: coldProxy.url,
  }
  const service = await startService({ env })
  const stops = [service.stop, proxy.close, coldProxy.close, cold.stop, devnet.stop]
  // the Edge twin reads the same devnet through a proxy of its own (the main proxy counts the served path's reads)
  let edgeUrl: string | undefined
  if (opts.edgeDir) {
    const edgeProxy = await startCountingProxy(devnet.url)
    const edge = await startService({ cwd: opts.edgeDir, env: { ...env, RPC_URL_31337: edgeProxy.url, RPC_URL_31338: edgeProxy.url } })
    stops.unshift(edge.stop, edgeProxy.close)
    edgeUrl = edge.url
  }
  try {
    const headers = { authorization: auth }
    // cold start: the first request for a chain nobody asked for yet
    coldProxy.reset()
    const t0 = performance.now()
    const first = await fetch(`${service.url}/networks/31338/suggestedGasFees`, { headers })
    const latencyMs = performance.now() - t0
    if (!first.ok) throw new Error(`cold request failed: ${first.status}`)
    const cc = coldProxy.counts()
    const coldResult = {
      latencyMs,
      upstreamRequests: cc['<http>'] ?? 0,
      upstreamCalls: Object.entries(cc)
        .filter(([k]) => k !== '<http>')
        .reduce((s, [, v]) => s + v, 0),
    }

    const sample = Buffer.from(await (await fetch(`${service.url}/networks/31337/suggestedGasFees`, { headers })).arrayBuffer())
    const bare = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(sample)
    })
    await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r))
    stops.unshift(() => new Promise<void>((r) => bare.close(() => r())))
    const bareUrl = `http://127.0.0.1:${(bare.address() as { port: number }).port}/`

    // The floor the endpoints are compared with is a constant route with a dynamic segment, as the
    // API's /networks/{chainId}/… routes have (Next matches and passes the params); the static
    // constant route is shown as well.
    const floor: [string, string] = ['next constant, dynamic segment (framework floor)', `${service.url}/bench-floor/31337`]
    const targets: [string, string][] = [
      ['node:http (machine limit)', bareUrl],
      floor,
      ['next constant, static route', `${service.url}/bench-floor`],
      [BARE_FLOOR, `${service.url}/bench-bare/31337`],
      ['/healthz', `${service.url}/healthz`],
      ...ENDPOINTS.map((e): [string, string] => [e, `${service.url}/networks/31337/${e}`]),
      ...(edgeUrl
        ? [
            ['/healthz, middleware on the Edge runtime', `${edgeUrl}/healthz`] as [string, string],
            ['suggestedGasFees, middleware on the Edge runtime', `${edgeUrl}/networks/31337/suggestedGasFees`] as [string, string],
          ]
        : []),
      // the same answer from a chain whose provider takes 3 s per answer: once the chain has a
      // window, no request waits for the read (answers are marked stale while it is late)
      [SLOW, `${service.url}/networks/31338/suggestedGasFees`],
    ]
    coldProxy.delayMs = 3_000
    const rows: BenchRow[] = []
    const FLOOR = floor[0]
    const bareRun = (i: number, rs: Map<string, { r: LoadResult }[]>) => {
      const run = rs.get(BARE_FLOOR)?.[i]
      if (!run) throw new Error(`the no-middleware floor has no run for round ${i + 1}`)
      return run.r
    }
    for (const connections of opts.connections) {
      // Rounds interleave the targets (each round in a rotated order), so the machine's drift over
      // minutes hits the floor and the endpoints alike; every ratio compares runs of the same round.
      const runs = new Map<string, { r: LoadResult; calls: number; blocks: number }[]>(targets.map(([t]) => [t, []]))
      for (let round = 0; round < opts.rounds; round++) {
        // the targets rotated left by `round`
        const shift = round % targets.length
        const order = [...targets.slice(shift), ...targets.slice(0, shift)]
        for (const [target, url] of order) {
          await load(url, { connections, seconds: 1, headers }) // warm-up
          const headBefore = Number(await rpc<string>(devnet.url, 'eth_blockNumber'))
          proxy.reset()
          const r = await load(url, { connections, seconds: opts.seconds, headers })
          const headAfter = Number(await rpc<string>(devnet.url, 'eth_blockNumber'))
          const calls = Object.entries(proxy.counts())
            .filter(([k]) => k !== '<http>')
            .reduce((sum, [, v]) => sum + v, 0)
          runs.get(target)!.push({ r, calls, blocks: headAfter - headBefore })
          opts.log(
            `round ${round + 1}/${opts.rounds} ${target} @${connections}: ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.errors} errors`,
          )
        }
      }
      const floorRuns = runs.get(FLOOR)!
      // every target ran once per round, so run i of a target and of the floor share round i
      const floorRun = (i: number) => {
        const run = floorRuns[i]
        if (!run) throw new Error(`the floor has no run for round ${i + 1}`)
        return run.r
      }
      for (const [target] of targets) {
        const rs = runs.get(target)!
        const isEndpoint = ENDPOINTS.includes(target)
        const calls = rs.reduce((sum, x) => sum + x.calls, 0)
        const blocks = rs.reduce((sum, x) => sum + x.blocks, 0)
        rows.push({
          target,
          connections,
          rounds: rs.length,
          rps: median(rs.map((x) => x.r.rps)),
          p50: median(rs.map((x) => x.r.p50)),
          p99: median(rs.map((x) => x.r.p99)),
          errors: rs.reduce((sum, x) => sum + x.r.errors, 0),
          requests: rs.reduce((sum, x) => sum + x.r.requests, 0),
          ...(target.startsWith('node:http')
            ? {}
            : {
                rpsVsFloor: median(rs.map((x, i) => x.r.rps / floorRun(i).rps)),
                rpsVsBare: median(rs.map((x, i) => x.r.rps / bareRun(i, runs).rps)),
                p99VsFloor: median(rs.map((x, i) => x.r.p99 / Math.max(floorRun(i).p99, 1))),
              }),
          ...(isEndpoint
            ? {
                newBlocks: blocks,
                callsPerBlock: blocks > 0 ? calls / blocks : calls,
                worstCallsPerBlock: Math.max(...rs.map((x) => (x.blocks > 0 ? x.calls / x.blocks : x.calls))),
              }
            : {}),
        })
      }
    }
    return { rows, cold: coldResult }
  } finally {
    for (const stop of stops) await stop().catch(() => {})
  }
}
