import { connect } from 'node:net'
import { startCountingProxy } from '../devnet/counting-proxy'
import { startDevnet } from '../devnet/devnet'
import { startService, type Service } from '../devnet/service'
import { benchKeys, commitOf, cpuSecondsOf, streamPath, type Build } from './stream-burst'

/**
 * `npm run bench:stream-open`: what one stream open costs the service (the gate, the route, the first event), on
 * builds (or paths: `Build.path`) side by side: their `next start`s run at once against one devnet, with the default
 * settings, and take turns (rounds alternate which goes first). In a round a build gets `perRound` opens, `concurrency` at a time, each
 * waited for until its first `fees` event; the service's CPU time over the round (utime + stime from /proc) is the
 * cost. The streams are closed after the round, outside it. The CPU profile's window (`windows`) lets a profile be
 * cut to the rounds.
 */

export type OpenCostRow = {
  label: string
  commit: string
  /** CPU per open of each round, µs. */
  perOpenUs: number[]
  /** Wall time per open of each round (its opens over `concurrency`), ms. */
  wallMs: number[]
  /** The rounds' windows on the monotonic clock (µs, as V8's profile timestamps). */
  windows: [number, number][]
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const monoUs = () => Number(process.hrtime.bigint() / 1000n)

/** Opens one stream and resolves with its socket once the first `id:` line (the first `fees` event) arrives. */
function openOne(port: number, path: string, auth: string): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let seen = ''
    socket.on('connect', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth}\r\nAccept: text/event-stream\r\n\r\n`),
    )
    socket.on('data', (chunk: Buffer) => {
      seen += chunk.toString('latin1', 0, Math.min(chunk.length, 4096))
      if (!seen.startsWith('HTTP/1.1 200')) {
        socket.destroy()
        reject(new Error(`stream refused: ${seen.slice(0, 120)}`))
      } else if (seen.includes('\nid: ')) {
        socket.removeAllListeners('data')
        resolve(() => socket.destroy())
      }
    })
    socket.on('error', reject)
  })
}

/** `n` opens, `concurrency` at a time, keys taken in turn; resolves with the closers. */
async function openMany(service: Service, path: string, headers: string[], n: number, concurrency: number, from: number) {
  const closers: (() => void)[] = []
  let next = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = from + next++
        closers.push(await openOne(service.port, path, headers[i % headers.length]!))
      }
    }),
  )
  return closers
}

export async function runStreamOpenCostBench(opts: {
  builds: Build[]
  rounds: number
  perRound: number
  concurrency: number
  keys: number
  profileDirOf?: (build: Build) => string
  log: (s: string) => void
}): Promise<OpenCostRow[]> {
  const CHAIN = 31337
  const devnet = await startDevnet({ chainId: CHAIN, blockTimeSec: 2, seedBlocks: 520, liveTraffic: false })
  const proxy = await startCountingProxy(devnet.url)
  const { setting, headers } = benchKeys(opts.keys)
  const services: Service[] = []
  try {
    for (const build of opts.builds) {
      const dir = opts.profileDirOf?.(build)
      services.push(
        await startService({
          cwd: build.dir,
          env: {
            API_KEYS: setting,
            USE_PUBLIC_RPCS: 'false',
            [`RPC_URL_${CHAIN}`]: proxy.url,
            ...(dir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` } : {}),
          },
        }),
      )
    }
    const rows: OpenCostRow[] = opts.builds.map((b) => ({
      label: b.label,
      commit: commitOf(b.dir),
      perOpenUs: [],
      wallMs: [],
      windows: [],
    }))
    // warm-up: every key once on each build (its first authentication), and the route's bundles
    for (const [i, service] of services.entries()) {
      const closers = await openMany(service, streamPath(opts.builds[i]!, CHAIN), headers, opts.keys, opts.concurrency, 0)
      for (const close of closers) close()
    }
    await sleep(3_000)
    for (let round = 0; round < opts.rounds; round++) {
      const order = opts.builds.map((_, i) => i)
      if (round % 2 === 1) order.reverse()
      for (const i of order) {
        const service = services[i]!
        const row = rows[i]!
        const cpu0 = cpuSecondsOf(service.process.pid!)
        const t0 = monoUs()
        const closers = await openMany(
          service,
          streamPath(opts.builds[i]!, CHAIN),
          headers,
          opts.perRound,
          opts.concurrency,
          round * opts.perRound,
        )
        const t1 = monoUs()
        const cpu = cpuSecondsOf(service.process.pid!) - cpu0
        row.perOpenUs.push((cpu * 1e6) / opts.perRound)
        row.wallMs.push((t1 - t0) / 1000 / opts.perRound)
        row.windows.push([t0, t1])
        for (const close of closers) close()
        // the closes and the slots' release settle outside the next round
        await sleep(1_000)
      }
      opts.log(`round ${round + 1}: ${rows.map((r) => `${r.label} ${r.perOpenUs.at(-1)!.toFixed(0)} µs`).join(', ')}`)
    }
    return rows
  } finally {
    for (const s of services) await s.stop().catch(() => {})
    await proxy.close().catch(() => {})
    await devnet.stop().catch(() => {})
  }
}
