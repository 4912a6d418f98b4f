import { connect, type Socket } from 'node:net'
import { startCountingProxy, type CountingProxy } from '../devnet/counting-proxy'
import { startDevnet, type Devnet, type DevnetOptions } from '../devnet/devnet'
import { rpc } from '../devnet/json-rpc'
import { startRedis } from '../devnet/redis'
import { startService, type Service } from '../devnet/service'
import { load } from './load'

/**
 * `npm run bench:feed`: the feed's upstream cost and freshness on real anvil devnets, one per chain
 * clock, all served at once by `next start` (one instance, or several sharing a Redis), each node
 * behind a counting proxy: `eth_feeHistory` reads per new block counted at the node, with per chain
 * a stream subscriber (or more) and a client every 300 ms, optionally under load; and what clients
 * polling every 10 s and 15 s (2-s chain) and 8 s (1-s chain) are answered: how many blocks behind the
 * node's head, and whether marked stale.
 */

export type FeedClock = { name: string; devnet: DevnetOptions }

/** The chain clocks of issue 20's table. */
export const FEED_CLOCKS: FeedClock[] = [
  {
    name: '2 s slots on the wall clock, blocks reaching the node 50–300 ms after their slot',
    devnet: { blockTimeSec: 2, clock: { kind: 'slots', delayMs: [50, 300] } },
  },
  { name: '1 s slots on the wall clock', devnet: { blockTimeSec: 1, clock: { kind: 'slots', delayMs: [50, 300] } } },
  { name: '2 s blocks whose timestamps advance 1 s per block', devnet: { blockTimeSec: 2, clock: { kind: 'drift', stampStepSec: 1 } } },
  { name: 'irregular 0.5–3.5 s blocks', devnet: { blockTimeSec: 2, clock: { kind: 'irregular', gapMs: [500, 3_500] } } },
  {
    name: 'a devnet making ~1 s blocks with live traffic',
    devnet: { blockTimeSec: 1, clock: { kind: 'slots', delayMs: [50, 300] }, liveTraffic: true },
  },
]

export type FeedBenchOptions = {
  seconds: number
  /** Stream subscribers in all, spread over the chains and instances (at least one per chain). */
  subscribers: number
  /** autocannon connections in all, spread over the chains (0: none). */
  connections: number
  /** `next start` instances (more than one: sharing a Redis). */
  instances: number
  pollers: boolean
  log: (line: string) => void
}

export type FeedRow = { clock: string; reads: number; blocks: number; seconds: number }
export type PollerRow = { client: string; answers: number; behind: number[]; stale: number }

const KEY: [string, string] = ['bench', 'bench-feed-secret-0123456789']
const AUTH = `Basic ${Buffer.from(KEY.join(':')).toString('base64')}`
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)))

/** A raw subscriber socket (its events are not parsed: the bench counts reads, not deliveries). */
function subscribe(port: number, path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    socket.on('connect', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH}\r\nAccept: text/event-stream\r\n\r\n`)
      resolve(socket)
    })
    socket.on('data', () => {})
    socket.on('error', reject)
  })
}

export async function runFeedBench(opts: FeedBenchOptions): Promise<{ rows: FeedRow[]; pollers: PollerRow[] }> {
  const stops: (() => Promise<unknown>)[] = []
  try {
    const chains: { id: number; clock: FeedClock; devnet: Devnet; proxy: CountingProxy }[] = []
    await Promise.all(
      FEED_CLOCKS.map(async (clock, i) => {
        const id = 31_601 + i
        const devnet = await startDevnet({ chainId: id, seedBlocks: 520, liveTraffic: false, ...clock.devnet })
        stops.push(devnet.stop)
        const proxy = await startCountingProxy(devnet.url)
        stops.push(proxy.close)
        chains[i] = { id, clock, devnet, proxy }
      }),
    )
    opts.log(`devnets up: ${chains.map((c) => c.id).join(', ')}`)
    let redisUrl: string | undefined
    if (opts.instances > 1) {
      const redis = await startRedis()
      stops.push(redis.stop)
      redisUrl = redis.url
    }
    const services: Service[] = []
    for (let i = 0; i < opts.instances; i++) {
      const service = await startService({
        env: {
          API_KEYS: KEY.join(':'),
          RATE_LIMITS: `${KEY[0]}=0`,
          USE_PUBLIC_RPCS: 'false',
          REQUEST_LOG: 'false',
          STREAM_MAX_PER_KEY: '100000',
          STREAM_MAX_TOTAL: '100000',
          ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
          ...Object.fromEntries(chains.map((c) => [`RPC_URL_${c.id}`, c.proxy.url])),
        },
      })
      stops.push(service.stop)
      services.push(service)
    }
    const serviceFor = (n: number) => services[n % services.length]!
    const head = (c: (typeof chains)[number]) => rpc<string>(c.devnet.url, 'eth_blockNumber').then(Number)
    const ask = async (c: (typeof chains)[number], n: number) => {
      const res = await fetch(`${serviceFor(n).url}/networks/${c.id}/suggestedGasFees`, { headers: { authorization: AUTH } })
      await res.arrayBuffer()
      return { block: Number(res.headers.get('x-block-number')), stale: res.headers.get('x-data-stale') === 'true' }
    }

    // subscribers, at least one per chain, spread over the chains and instances
    const sockets: Socket[] = []
    const perChain = Math.max(1, Math.floor(opts.subscribers / chains.length))
    for (const c of chains) {
      for (let k = 0; k < perChain; k++) sockets.push(await subscribe(serviceFor(k).port, `/networks/${c.id}/stream`))
    }
    stops.push(async () => sockets.forEach((s) => s.destroy()))
    opts.log(`${sockets.length} subscribers open`)

    let running = true
    const clients = chains.map(async (c) => {
      for (let n = 0; running; n++) {
        await ask(c, n).catch(() => {})
        await sleep(300)
      }
    })
    // the read timing finds each chain's phase in its first reads
    await sleep(10_000)

    const poller = async (name: string, c: (typeof chains)[number], everyMs: number): Promise<PollerRow> => {
      const row: PollerRow = { client: name, answers: 0, behind: [], stale: 0 }
      const end = Date.now() + opts.seconds * 1000
      for (let n = 0; Date.now() < end; n++) {
        const started = Date.now()
        const nodeHead = await head(c)
        const a = await ask(c, n)
        row.answers++
        row.behind.push(nodeHead - a.block)
        if (a.stale) row.stale++
        await sleep(started + everyMs - Date.now())
      }
      return row
    }
    const before = await Promise.all(chains.map(async (c) => ({ reads: c.proxy.counts().eth_feeHistory ?? 0, head: await head(c) })))
    const started = Date.now()
    const perChainConnections = Math.floor(opts.connections / chains.length)
    const [pollers] = await Promise.all([
      opts.pollers
        ? Promise.all([
            poller('every 10 s, 2-s slots', chains[0]!, 10_000),
            poller('every 15 s, 2-s slots', chains[0]!, 15_000),
            poller('every 8 s, 1-s slots', chains[1]!, 8_000),
          ])
        : Promise.resolve([]),
      perChainConnections > 0
        ? Promise.all(
            chains.map((c, i) =>
              load(`${serviceFor(i).url}/networks/${c.id}/suggestedGasFees`, {
                connections: perChainConnections,
                seconds: opts.seconds,
                headers: { authorization: AUTH },
              }),
            ),
          )
        : sleep(opts.seconds * 1000),
    ])
    const seconds = (Date.now() - started) / 1000
    const rows = await Promise.all(
      chains.map(async (c, i) => ({
        clock: c.clock.name,
        reads: (c.proxy.counts().eth_feeHistory ?? 0) - before[i]!.reads,
        blocks: (await head(c)) - before[i]!.head,
        seconds,
      })),
    )
    running = false
    await Promise.all(clients)
    return { rows, pollers }
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {})
  }
}
