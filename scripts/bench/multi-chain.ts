import autocannon from 'autocannon'
import { startCountingProxy, type CountingProxy } from '../devnet/counting-proxy'
import { startDevnet, type Devnet } from '../devnet/devnet'
import { rpc } from '../devnet/json-rpc'
import { startService, type Service } from '../devnet/service'

/**
 * `npm run bench:multi-chain`: one 10-chain call (GET /v1/suggestedGasFees?chainIds=…) against 10 single calls
 * (GET /networks/{chainId}/suggestedGasFees, one per chain, in turn on each connection) on one `next start`
 * instance serving anvil devnets, each behind a counting proxy; interleaved rounds, the upstream reads
 * (eth_feeHistory at the nodes) counted per target.
 */

export type MultiChainBenchOptions = { chains: number; seconds: number; rounds: number; connections: number; log: (line: string) => void }

export type MultiChainRow = {
  target: string
  /** HTTP requests per second (median over the rounds). */
  rps: number
  /** Chain answers per second: rps × the chains each request answers. */
  chainsPerSecond: number
  p50: number
  p99: number
  errors: number
  /** eth_feeHistory reads at the nodes during the target's rounds, and the new blocks meanwhile (all chains). */
  reads: number
  blocks: number
}

const KEY: [string, string] = ['bench', 'bench-multi-chain-secret-0123456789']
const FIRST_CHAIN = 31_600

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0

/** One autocannon run in this process: `paths` in turn on each connection. */
async function hit(url: string, paths: string[], connections: number, seconds: number) {
  const authorization = `Basic ${Buffer.from(KEY.join(':')).toString('base64')}`
  const r = await autocannon({
    url,
    connections,
    duration: seconds,
    headers: { authorization },
    requests: paths.map((path) => ({ method: 'GET', path })),
  })
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts + r.non2xx }
}

export async function runMultiChainBench(opts: MultiChainBenchOptions): Promise<MultiChainRow[]> {
  const ids = Array.from({ length: opts.chains }, (_, i) => FIRST_CHAIN + i)
  const devnets: Devnet[] = []
  const proxies: CountingProxy[] = []
  let service: Service | undefined
  try {
    opts.log(`starting ${opts.chains} anvil devnets (2-s blocks), each behind a counting proxy`)
    for (const chainId of ids) {
      const devnet = await startDevnet({ chainId, blockTimeSec: 2, seedBlocks: 60, liveTraffic: false })
      devnets.push(devnet)
      proxies.push(await startCountingProxy(devnet.url))
    }
    service = await startService({
      env: {
        API_KEYS: KEY.join(':'),
        RATE_LIMITS: `${KEY[0]}=0`,
        USE_PUBLIC_RPCS: 'false',
        REQUEST_LOG: 'false',
        MAX_HEAD_AGE_SECONDS: '0',
        ...Object.fromEntries(ids.map((id, i) => [`RPC_URL_${id}`, proxies[i]!.url])),
      },
    })
    const multi = [`/v1/suggestedGasFees?chainIds=${ids.join(',')}`]
    const singles = ids.map((id) => `/networks/${id}/suggestedGasFees`)
    const targets = [
      { name: `one ${opts.chains}-chain call`, paths: multi, chains: opts.chains },
      { name: `${opts.chains} single calls`, paths: singles, chains: 1 },
    ]
    // warm every chain's window, so neither target pays the cold reads
    await hit(service.url, [...multi, ...singles], 1, 2)
    const heads = async () => {
      let sum = 0
      for (const d of devnets) sum += Number(await rpc<string>(d.url, 'eth_blockNumber'))
      return sum
    }
    const reads = () => proxies.reduce((n, p) => n + (p.counts().eth_feeHistory ?? 0), 0)
    const runs = targets.map(() => ({ rps: [] as number[], p50: [] as number[], p99: [] as number[], errors: 0, reads: 0, blocks: 0 }))
    for (let round = 0; round < opts.rounds; round++) {
      // alternate the order, so neither target always runs second
      const order = round % 2 === 0 ? [0, 1] : [1, 0]
      for (const t of order) {
        const [readsBefore, headsBefore] = [reads(), await heads()]
        const r = await hit(service.url, targets[t]!.paths, opts.connections, opts.seconds)
        const run = runs[t]!
        run.rps.push(r.rps)
        run.p50.push(r.p50)
        run.p99.push(r.p99)
        run.errors += r.errors
        run.reads += reads() - readsBefore
        run.blocks += (await heads()) - headsBefore
        opts.log(`round ${round + 1}: ${targets[t]!.name}: ${r.rps.toFixed(0)} req/s, p99 ${r.p99} ms`)
      }
    }
    return targets.map((t, i) => {
      const run = runs[i]!
      const rps = median(run.rps)
      return {
        target: t.name,
        rps,
        chainsPerSecond: rps * t.chains,
        p50: median(run.p50),
        p99: median(run.p99),
        errors: run.errors,
        reads: run.reads,
        blocks: run.blocks,
      }
    })
  } finally {
    await service?.stop().catch(() => {})
    for (const p of proxies) await p.close().catch(() => {})
    for (const d of devnets) await d.stop().catch(() => {})
  }
}
