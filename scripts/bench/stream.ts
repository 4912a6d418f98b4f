import { readFileSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { startCountingProxy } from '../devnet/counting-proxy'
import { startDevnet } from '../devnet/devnet'
import { rpc } from '../devnet/json-rpc'
import { startService } from '../devnet/service'
import { load, type LoadResult } from './load'
import { benchKeys } from './stream-burst'

/**
 * `npm run bench:stream`: concurrent subscribers of GET /networks/{chainId}/stream on one `next start`
 * (anvil devnet, a block every `blockSeconds`, behind a counting proxy), against the same update rate
 * reached by polling suggestedGasFees once per block per client. The service runs on the default settings:
 * the subscribers are spread over API keys, 10 to a key (STREAM_MAX_PER_KEY's default); STREAM_MAX_TOTAL is raised
 * only for a row of more than its default 5,000.
 *
 * Subscribers are raw sockets in this process: each sends the GET and scans what arrives for
 * `id: <block>` lines (no full SSE parse, so the client's own cost stays small). Delivery delay is
 * measured from the first subscriber receiving a block's event to each subscriber receiving it: the
 * service's fan-out, since the first one gets the event as soon as the service has the window.
 */

export type StreamRow = {
  subscribers: number
  /** Seconds to open them all (each through the middleware's auth). */
  connectSeconds: number
  /** Subscribers that got every measured block's event: every block the node made in the period. */
  complete: number
  /** Blocks of the period some subscriber got an event for. */
  blocks: number
  delayP50Ms: number
  delayP99Ms: number
  delayMaxMs: number
  /** Service RSS (MiB) before any subscriber, with all connected, and after the measured blocks. */
  rssBaseMiB: number
  rssConnectedMiB: number
  rssEndMiB: number
  /** (RSS with them − RSS before) / subscribers, KiB. */
  kibPerSubscriber: number
  /** RSS sampled every 10 s over the measured period (MiB): the trend, with its least-squares slope (MiB per minute). */
  rssSamplesMiB: number[]
  rssSlopeMiBPerMinute: number
  /** The V8 heap in use at the same moments (MiB, /metrics nodejs_heap_size_used_bytes): what the service holds, garbage not yet collected included. */
  heapSamplesMiB: number[]
  /** Service CPU over the measured blocks, % of one core. */
  cpuPercent: number
  /** eth_feeHistory reads over the measured blocks. */
  reads: number
  /** How far the node's head moved over the measured period (blocks), and the period (s). */
  newBlocks: number
  seconds: number
}

export type PollRow = LoadResult & { clients: number; targetRps: number; cpuPercent: number; seconds: number }

const ID = Buffer.from('\nid: ')

type Sub = { socket: Socket; carry: Buffer; ok: boolean; arrivals: Map<number, number> }

/** Opens one raw subscriber; resolves once the response's status line arrives. */
function subscribe(port: number, path: string, auth: string): Promise<Sub> {
  return new Promise((resolve, reject) => {
    const sub: Sub = { socket: connect(port, '127.0.0.1'), carry: Buffer.alloc(0), ok: false, arrivals: new Map() }
    let settled = false
    sub.socket.setNoDelay(true)
    sub.socket.on('connect', () => {
      sub.socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth}\r\nAccept: text/event-stream\r\n\r\n`)
    })
    sub.socket.on('data', (chunk: Buffer) => {
      const now = performance.now()
      const data = sub.carry.length ? Buffer.concat([sub.carry, chunk]) : chunk
      if (!settled) {
        settled = true
        sub.ok = data.subarray(0, 12).toString('latin1') === 'HTTP/1.1 200'
        if (!sub.ok) return reject(new Error(`stream refused: ${data.subarray(0, 200).toString('latin1')}`))
        resolve(sub)
      }
      let at = data.indexOf(ID)
      let consumed = 0
      while (at >= 0) {
        const end = data.indexOf(10, at + ID.length)
        if (end < 0) break
        const block = Number(data.subarray(at + ID.length, end).toString('latin1'))
        if (!sub.arrivals.has(block)) sub.arrivals.set(block, now)
        consumed = end
        at = data.indexOf(ID, end)
      }
      // keep the tail: an `id:` line may be split across reads
      sub.carry = Buffer.from(data.subarray(Math.max(consumed, data.length - 32)))
    })
    sub.socket.on('error', (err) => {
      if (!settled) {
        settled = true
        reject(err)
      }
    })
  })
}

const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
/** utime + stime of a process, seconds (clock ticks of 1/100 s). */
const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.max(0, Math.ceil(q * s.length) - 1)] ?? Number.NaN
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const METRICS_TOKEN = 'bench-stream-metrics-token-0123456789'
/** STREAM_MAX_PER_KEY's and STREAM_MAX_TOTAL's defaults: the subscribers are spread over keys, and the ceiling stays. */
const STREAMS_PER_KEY = 10
const DEFAULT_MAX_TOTAL = 5_000

/** The service's V8 heap in use, MiB (NaN when /metrics does not answer). */
async function heapMiB(url: string, token: string): Promise<number> {
  try {
    const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text()
    const m = /^nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\S+)$/m.exec(text)
    return m ? Number(m[1]) / 1024 / 1024 : Number.NaN
  } catch {
    return Number.NaN
  }
}

/** The newest block any subscriber got an event for (a loop: a spread of 5,000 × blocks arguments overflows the stack). */
function newestArrival(subs: Sub[]): number {
  let top = Number.NEGATIVE_INFINITY
  for (const s of subs) for (const b of s.arrivals.keys()) if (b > top) top = b
  return top
}

/** Least-squares slope of equally spaced samples, per `spacingS` seconds, scaled to per minute. */
function slopePerMinute(ys: number[], spacingS: number): number {
  const n = ys.length
  if (n < 2) return 0
  const mx = (n - 1) / 2
  const my = ys.reduce((a, b) => a + b, 0) / n
  let num = 0
  let den = 0
  ys.forEach((y, i) => {
    num += (i - mx) * (y - my)
    den += (i - mx) ** 2
  })
  return (num / den) * (60 / spacingS)
}

export async function runStreamBench(opts: {
  subscribers: number[]
  blocks: number
  blockSeconds: number
  pollClients: number[]
  pollSeconds: number
  /** Seconds the chain stops once every subscriber has its first event; the measured blocks are the ones after it resumes (anvil's interval mining). */
  pauseSeconds?: number
  log: (s: string) => void
}): Promise<{ streams: StreamRow[]; polls: PollRow[] }> {
  const CHAIN = 31337
  const pause = opts.pauseSeconds ?? 0
  const devnet = await startDevnet({
    chainId: CHAIN,
    blockTimeSec: opts.blockSeconds,
    seedBlocks: 520,
    liveTraffic: false,
    // a pause is anvil's own: interval mining stopped and started again
    ...(pause > 0 ? { clock: { kind: 'interval' as const } } : {}),
  })
  const proxy = await startCountingProxy(devnet.url)
  const secret = 'bench-stream-secret-0123456789'
  const auth = `Basic ${Buffer.from(`bench:${secret}`).toString('base64')}`
  const most = Math.max(...opts.subscribers)
  const streamKeys = benchKeys(Math.ceil(most / STREAMS_PER_KEY))
  const service = await startService({
    env: {
      // the subscribers' keys besides: STREAM_MAX_PER_KEY's default of streams to a key
      API_KEYS: `bench:${secret},${streamKeys.setting}`,
      RATE_LIMITS: 'bench=0',
      USE_PUBLIC_RPCS: 'false',
      // the default settings, but the ceiling where a row has more subscribers than STREAM_MAX_TOTAL's default, and
      // the stream's duration where the measured blocks outlast it
      ...(most > DEFAULT_MAX_TOTAL ? { STREAM_MAX_TOTAL: String(most + 10) } : {}),
      ...(opts.blocks * opts.blockSeconds + pause > 200 ? { STREAM_MAX_SECONDS: '3600' } : {}),
      METRICS_TOKEN,
      [`RPC_URL_${CHAIN}`]: proxy.url,
    },
  })
  const pid = service.process.pid!
  const streams: StreamRow[] = []
  const polls: PollRow[] = []
  // every subscriber ever opened: closed before the service stops (open streams would hold its shutdown)
  const opened: Sub[] = []
  try {
    // warm: the chain's window, the route bundles
    for (let i = 0; i < 3; i++) await fetch(`${service.url}/networks/${CHAIN}/suggestedGasFees`, { headers: { authorization: auth } })
    for (const n of opts.subscribers) {
      await sleep(2_000)
      const rssBase = rssMiB(pid)
      opts.log(`${n} subscribers: connecting…`)
      const t0 = performance.now()
      const subs: Sub[] = []
      for (let i = 0; i < n; i += 250) {
        const batch = Math.min(250, n - i)
        const batchSubs = await Promise.all(
          Array.from({ length: batch }, (_, j) =>
            subscribe(service.port, `/networks/${CHAIN}/stream`, streamKeys.headers[Math.floor((i + j) / STREAMS_PER_KEY)]!),
          ),
        )
        subs.push(...batchSubs)
        opened.push(...batchSubs)
      }
      const connectSeconds = (performance.now() - t0) / 1000
      // every subscriber has its first event
      while (subs.some((s) => s.arrivals.size === 0)) await sleep(50)
      const rssConnected = rssMiB(pid)
      if (pause > 0) {
        opts.log(`${n} subscribers: the chain stops for ${pause} s…`)
        await rpc(devnet.url, 'evm_setIntervalMining', [0])
        await sleep(pause * 1000)
        await rpc(devnet.url, 'evm_setIntervalMining', [opts.blockSeconds])
      }
      const startBlock = newestArrival(subs)
      const reads0 = proxy.counts().eth_feeHistory ?? 0
      const cpu0 = cpuSeconds(pid)
      const w0 = performance.now()
      opts.log(`${n} subscribers: connected in ${connectSeconds.toFixed(1)} s; waiting for ${opts.blocks} new blocks after ${startBlock}…`)
      const last = startBlock + opts.blocks
      const deadline = performance.now() + (opts.blocks * opts.blockSeconds + 60) * 1000
      // a block at or past the last one (a skipped block shows below, against the node's blocks)
      const reached = (s: Sub) => [...s.arrivals.keys()].some((b) => b >= last)
      const rssSamples: number[] = []
      const heapSamples: number[] = []
      let nextSample = performance.now()
      while (performance.now() < deadline && subs.some((s) => !reached(s))) {
        if (performance.now() >= nextSample) {
          rssSamples.push(rssMiB(pid))
          heapSamples.push(await heapMiB(service.url, METRICS_TOKEN))
          nextSample += 10_000
        }
        await sleep(100)
      }
      const measuredSeconds = (performance.now() - w0) / 1000
      // a moment for stragglers of the last block
      await sleep(1_000)
      const cpu = ((cpuSeconds(pid) - cpu0) / ((performance.now() - w0) / 1000)) * 100
      const reads = (proxy.counts().eth_feeHistory ?? 0) - reads0
      // the node's blocks of the period: up to the newest any subscriber got
      const newBlocks = newestArrival(subs) - startBlock
      const rssEnd = rssMiB(pid)
      const delays: number[] = []
      let measured = 0
      const top = startBlock + newBlocks
      for (let b = startBlock + 1; b <= top; b++) {
        const times = subs.map((s) => s.arrivals.get(b)).filter((t): t is number => t !== undefined)
        if (times.length === 0) continue // the service skipped this block (it reads once per interval)
        measured++
        const first = times.reduce((a, b) => Math.min(a, b))
        for (const t of times) delays.push(t - first)
      }
      const complete = subs.filter((s) => {
        for (let b = startBlock + 1; b <= top; b++) if (!s.arrivals.has(b)) return false
        return true
      }).length
      streams.push({
        subscribers: n,
        connectSeconds,
        complete,
        blocks: measured,
        delayP50Ms: quantile(delays, 0.5),
        delayP99Ms: quantile(delays, 0.99),
        delayMaxMs: delays.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY),
        rssBaseMiB: rssBase,
        rssConnectedMiB: rssConnected,
        rssEndMiB: rssEnd,
        kibPerSubscriber: ((rssConnected - rssBase) * 1024) / n,
        rssSamplesMiB: rssSamples,
        rssSlopeMiBPerMinute: slopePerMinute(rssSamples, 10),
        heapSamplesMiB: heapSamples,
        cpuPercent: cpu,
        reads,
        newBlocks,
        seconds: measuredSeconds,
      })
      for (const s of subs) s.socket.destroy()
    }
    for (const clients of opts.pollClients) {
      await sleep(2_000)
      const targetRps = clients / opts.blockSeconds
      opts.log(`polling: ${clients} clients at one request per block (${targetRps} req/s)…`)
      const cpu0 = cpuSeconds(pid)
      const w0 = performance.now()
      const r = await load(`${service.url}/networks/${CHAIN}/suggestedGasFees`, {
        connections: Math.min(clients, 200),
        seconds: opts.pollSeconds,
        rate: targetRps,
        headers: { authorization: auth },
      })
      const cpu = ((cpuSeconds(pid) - cpu0) / ((performance.now() - w0) / 1000)) * 100
      polls.push({ ...r, clients, targetRps, cpuPercent: cpu, seconds: opts.pollSeconds })
    }
  } finally {
    for (const s of opened) s.socket.destroy()
    for (const stop of [service.stop, proxy.close, devnet.stop]) await stop().catch(() => {})
  }
  return { streams, polls }
}
