import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { connect, type Socket } from 'node:net'
import { startCountingProxy } from '../devnet/counting-proxy'
import { startDevnet } from '../devnet/devnet'
import { rpc } from '../devnet/json-rpc'
import { startService, type Service } from '../devnet/service'
import { buildIsFresh, ensureFreshBuild } from '../devnet/fresh-build'
import { usageExit } from '../cli/cli-args'

/**
 * `npm run bench:stream-burst`: a burst of stream opens on one `next start` with the default settings (issue 45,
 * part 5): `subscribers` raw sockets to GET /networks/{chainId}/stream, `perBatch` of them every `everyMs`, none
 * awaited, on an anvil devnet with a block every `blockSeconds`. The streams are spread over API keys, `perKey` to a
 * key (STREAM_MAX_PER_KEY's default, 10), so no ceiling is raised: STREAM_MAX_TOTAL stays at its default.
 *
 * Per subscriber: when its status line came and when its first `fees` event came, from the moment its connect
 * started (so a connection the listen backlog dropped counts its SYN retries); and which blocks it got.
 */

/** A build to run, and the stream path it is opened on (`{chainId}` for the chain; the chain's stream when not given). */
export type Build = { label: string; dir: string; path?: string }

export const streamPath = (build: Build, chainId: number) =>
  (build.path ?? '/networks/{chainId}/stream').replace('{chainId}', String(chainId))

/**
 * The builds of a `--paths` list: each entry a path of this checkout's build, or `<folder>=<path>` for another
 * folder's build (the first `=` splits them). The framework's floor streams (`/bench-` paths) exist only in bench
 * builds: `benchBuild` says when one is named. A string: what is wrong with the list.
 */
export function buildsOfPaths(spec: string, cwd: string): { builds: Build[]; benchBuild: boolean } | string {
  const builds = spec.split(',').map((entry) => {
    const at = entry.indexOf('=')
    const dir = at < 0 ? cwd : resolve(entry.slice(0, at))
    const path = entry.slice(at + 1)
    return { label: at < 0 ? path : `${entry.slice(0, at)} ${path}`, dir, path }
  })
  if (builds.some((b) => !/^\/\S*$/.test(b.path))) return '--paths: every path starts with / and has no spaces'
  if (new Set(builds.map((b) => b.label.replace(/\W+/g, '-'))).size < builds.length) return '--paths: each entry once'
  return { builds, benchBuild: builds.some((b) => b.path.includes('/bench-')) }
}

/**
 * The builds a stream bench runs, built as needed: this checkout's, or one per `--paths` entry (a usage error for a
 * bad list). A floor path asks for a bench build; another folder's build is made when it is missing or stale.
 */
export async function benchBuilds(paths: string | undefined, noBuild: boolean, usage: string): Promise<Build[]> {
  const byPath = paths === undefined ? undefined : buildsOfPaths(paths, process.cwd())
  if (typeof byPath === 'string') usageExit(usage, byPath)
  if (byPath?.benchBuild) process.env.GAS_API_BENCH_BUILD = '1'
  if (!noBuild) await ensureFreshBuild()
  for (const b of byPath?.builds ?? []) if (b.dir !== process.cwd() && !buildIsFresh(b.dir)) await ensureFreshBuild(b.dir)
  return byPath?.builds ?? [{ label: 'this checkout', dir: process.cwd() }]
}

/** Whether a build is opened on a framework floor (its events are not blocks; /bench-bare/<id>/gated-stream's are). */
export const isFloor = (build: Build) => /\/bench-floor|\/bench-bare\/[^/]+\/stream$/.test(build.path ?? '')

export type BurstRow = {
  label: string
  commit: string
  subscribers: number
  /** Status lines 200 / another status (a refusal) / none within `statusDeadlineMs` or a socket error. */
  opened: number
  refused: number
  silent: number
  /** Of those, the ones whose status line came after the deadline (while the blocks were counted). */
  lateStatus: number
  statusMs: { p50: number; p99: number; max: number }
  firstEventMs: { p50: number; p99: number; max: number }
  /** When each socket's TCP handshake completed (its `connect` event), from the moment its connect started. */
  connectMs: { p50: number; p99: number; max: number }
  /** Of those past 10 s (`firstOver10s`), the ones whose handshake alone took over 900 ms: a dropped SYN, retried. */
  lateAfterSynRetry: number
  /** Subscribers whose first event came later than 10 s after the connect started, or never. */
  firstOver10s: number
  /** The node's blocks after the burst (`blocks` of them) and how many reached every subscriber. */
  blocksToAll: number
  /** Opened subscribers missing a block between the one their first event named and the last counted. */
  missedAfterFirst: number
  blocks: number
  /** Service CPU from the first connect to the last first event (or the deadline), s; and the kernel's part of it. */
  cpuSeconds: number
  kernelSeconds: number
  /** Over the same time, system-wide: SYNs dropped at a full listen queue, and SYNs sent again (tcpCounters). */
  listenOverflows: number
  synRetrans: number
  /** Over the same time, system-wide: the share of CPU time the hypervisor gave to others (/proc/stat steal), %. */
  stealPercent: number
  /** How fast the machine ran just before the burst: a fixed piece of work (referenceWorkMs) timed in this process, ms. */
  referenceMs: number
}

const ID = Buffer.from('\nid: ')

type Sub = {
  start: number
  connectedAt?: number
  status?: number
  statusAt?: number
  firstAt?: number
  blocks: Set<number>
  socket: Socket
}

function open(port: number, path: string, auth: string): Sub {
  const sub: Sub = { start: performance.now(), blocks: new Set(), socket: connect(port, '127.0.0.1') }
  let carry = Buffer.alloc(0)
  sub.socket.setNoDelay(true)
  sub.socket.on('connect', () => {
    sub.connectedAt = performance.now()
    sub.socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth}\r\nAccept: text/event-stream\r\n\r\n`)
  })
  sub.socket.on('data', (chunk: Buffer) => {
    const now = performance.now()
    const data = carry.length ? Buffer.concat([carry, chunk]) : chunk
    if (sub.status === undefined) {
      sub.status = Number(data.subarray(9, 12).toString('latin1'))
      sub.statusAt = now
    }
    let at = data.indexOf(ID)
    let consumed = 0
    while (at >= 0) {
      const end = data.indexOf(10, at + ID.length)
      if (end < 0) break
      sub.blocks.add(Number(data.subarray(at + ID.length, end).toString('latin1')))
      sub.firstAt ??= now
      consumed = end
      at = data.indexOf(ID, end)
    }
    carry = Buffer.from(data.subarray(Math.max(consumed, data.length - 32)))
  })
  sub.socket.on('error', () => {})
  return sub
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.max(0, Math.ceil(q * s.length) - 1)] ?? Number.NaN
}
const spread = (xs: number[]) => ({
  p50: quantile(xs, 0.5),
  p99: quantile(xs, 0.99),
  max: xs.length ? xs.reduce((a, b) => Math.max(a, b)) : Number.NaN,
})
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
/** utime + stime of a process (or stime alone: the kernel's part, its sockets' work), seconds (ticks of 1/100 s). */
export function cpuSecondsOf(pid: number, part: 'all' | 'kernel' = 'all'): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return ((part === 'all' ? Number(fields[11]) : 0) + Number(fields[12])) / 100
}

/** The kernel's TCP counters this bench reads (system-wide, /proc/net/netstat): SYNs dropped at a full listen queue, SYNs clients sent again. */
export function tcpCounters(): { listenOverflows: number; synRetrans: number } {
  const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n')
  const names = lines.find((l) => l.startsWith('TcpExt:'))?.split(' ') ?? []
  const values = lines.filter((l) => l.startsWith('TcpExt:'))[1]?.split(' ') ?? []
  const get = (name: string) => Number(values[names.indexOf(name)] ?? Number.NaN)
  return { listenOverflows: get('ListenOverflows'), synRetrans: get('TCPSynRetrans') }
}

/** The machine's CPU time so far, all cores (/proc/stat, ticks): in all, and stolen by the hypervisor. */
export function machineCpu(): { total: number; steal: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number)
  return { total: fields.reduce((a, b) => a + b, 0), steal: fields[7] ?? 0 }
}

/**
 * The time a fixed piece of work takes here now (3,000 SHA-256 digests of 64 KiB, best of 3), ms: how fast this process
 * ran just before the burst. The same build's bursts differ by half their CPU from run to run on a shared machine.
 */
export function referenceWorkMs(): number {
  const data = Buffer.alloc(64 * 1024, 7)
  let best = Infinity
  for (let round = 0; round < 3; round++) {
    const t = performance.now()
    for (let i = 0; i < 3_000; i++) createHash('sha256').update(data).digest()
    best = Math.min(best, performance.now() - t)
  }
  return best
}

/** API_KEYS of `n` keys (`k0`…), and the Basic header of each. */
export function benchKeys(n: number): { setting: string; headers: string[] } {
  const keys = Array.from({ length: n }, (_, i) => ({ key: `k${i}`, secret: `bench-burst-secret-${i}-0123456789` }))
  return {
    setting: keys.map((k) => `${k.key}:${k.secret}`).join(','),
    headers: keys.map((k) => `Basic ${Buffer.from(`${k.key}:${k.secret}`).toString('base64')}`),
  }
}

/** Where one service's CPU profile goes. */
export const profileDirOf = (root: string, build: Build, run: number) => `${root}/${build.label.replace(/\W+/g, '-')}-${run + 1}`

/** The commit a build's folder is at (its HEAD), short. */
export const commitOf = (dir: string) => execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()

/** One burst against a running service; every socket is closed before it returns. */
export async function burst(
  service: Service,
  o: {
    chainId: number
    nodeUrl: string
    subscribers: number
    perBatch: number
    everyMs: number
    perKey: number
    blocks: number
    statusDeadlineMs: number
    path: string
  },
): Promise<Omit<BurstRow, 'label' | 'commit'>> {
  const { headers } = benchKeys(Math.ceil(o.subscribers / o.perKey))
  const path = o.path
  const subs: Sub[] = []
  const pid = service.process.pid!
  const referenceMs = referenceWorkMs()
  const cpu0 = cpuSecondsOf(pid)
  const kernel0 = cpuSecondsOf(pid, 'kernel')
  const tcp0 = tcpCounters()
  const machine0 = machineCpu()
  const t0 = performance.now()
  for (let i = 0; i < o.subscribers; i += o.perBatch) {
    const wait = t0 + (i / o.perBatch) * o.everyMs - performance.now()
    if (wait > 0) await sleep(wait)
    for (let j = i; j < Math.min(o.subscribers, i + o.perBatch); j++)
      subs.push(open(service.port, path, headers[Math.floor(j / o.perKey)]!))
  }
  const head0 = Number(await rpc<string>(o.nodeUrl, 'eth_blockNumber'))
  const deadline = t0 + o.statusDeadlineMs
  while (performance.now() < deadline && subs.some((s) => s.status === undefined || (s.status === 200 && s.firstAt === undefined)))
    await sleep(100)
  const cpuSeconds = cpuSecondsOf(pid) - cpu0
  const kernelSeconds = cpuSecondsOf(pid, 'kernel') - kernel0
  const tcp1 = tcpCounters()
  const machine1 = machineCpu()
  // what the deadline found: later answers still count for the blocks, not here
  const silent = subs.filter((s) => s.statusAt === undefined || s.statusAt - s.start > o.statusDeadlineMs).length
  // the blocks after the burst: every subscriber should get each one
  const last = head0 + o.blocks
  while (Number(await rpc<string>(o.nodeUrl, 'eth_blockNumber')) < last) await sleep(200)
  await sleep(3_000)
  let blocksToAll = 0
  for (let b = head0 + 1; b <= last; b++) if (subs.every((s) => s.blocks.has(b))) blocksToAll++
  const missedAfterFirst = subs.filter((s) => {
    if (s.blocks.size === 0) return false
    for (let b = Math.min(...s.blocks) + 1; b <= last; b++) if (!s.blocks.has(b)) return true
    return false
  }).length
  for (const s of subs) s.socket.destroy()
  const opened = subs.filter((s) => s.status === 200)
  const late = (s: Sub) => s.firstAt === undefined || s.firstAt - s.start > 10_000
  return {
    subscribers: o.subscribers,
    opened: opened.length,
    refused: subs.filter((s) => s.status !== undefined && s.status !== 200).length,
    lateStatus: subs.filter((s) => s.status !== undefined).length - (o.subscribers - silent),
    silent,
    statusMs: spread(subs.flatMap((s) => (s.statusAt === undefined ? [] : [s.statusAt - s.start]))),
    firstEventMs: spread(opened.flatMap((s) => (s.firstAt === undefined ? [] : [s.firstAt - s.start]))),
    firstOver10s: subs.filter(late).length,
    connectMs: spread(subs.flatMap((s) => (s.connectedAt === undefined ? [] : [s.connectedAt - s.start]))),
    lateAfterSynRetry: subs.filter((s) => late(s) && (s.connectedAt === undefined || s.connectedAt - s.start > 900)).length,
    blocksToAll,
    missedAfterFirst,
    blocks: o.blocks,
    cpuSeconds,
    kernelSeconds,
    listenOverflows: tcp1.listenOverflows - tcp0.listenOverflows,
    synRetrans: tcp1.synRetrans - tcp0.synRetrans,
    stealPercent: (100 * (machine1.steal - machine0.steal)) / Math.max(1, machine1.total - machine0.total),
    referenceMs,
  }
}

/**
 * Runs the burst `runs` times on each build, alternating which goes first, each on a fresh `next start` against the
 * same devnet (so both builds meet the same machine and chain).
 */
export async function runStreamBurstBench(opts: {
  builds: Build[]
  runs: number
  subscribers: number
  perBatch: number
  everyMs: number
  perKey: number
  blocks: number
  blockSeconds: number
  statusDeadlineMs: number
  /** Where each service's output goes (`<label>-<run>.log`), when given. */
  logDir?: string
  /** Profile each service with node --cpu-prof into `<profileDir>/<label>-<run>/`, when given. */
  profileDir?: string
  log: (s: string) => void
}): Promise<BurstRow[]> {
  const CHAIN = 31337
  const devnet = await startDevnet({ chainId: CHAIN, blockTimeSec: opts.blockSeconds, seedBlocks: 520, liveTraffic: false })
  const proxy = await startCountingProxy(devnet.url)
  const rows: BurstRow[] = []
  try {
    for (let run = 0; run < opts.runs; run++) {
      const order = run % 2 === 0 ? opts.builds : [...opts.builds].reverse()
      for (const build of order) {
        const commit = commitOf(build.dir)
        opts.log(`run ${run + 1}: ${build.label} (${commit}) — ${opts.subscribers} subscribers, ${opts.perBatch} every ${opts.everyMs} ms…`)
        const service = await startService({
          cwd: build.dir,
          ...(opts.logDir ? { logFile: `${opts.logDir}/${build.label.replace(/\W+/g, '-')}-${run + 1}.log` } : {}),
          // the default settings but the keys and the node: no ceiling raised
          env: {
            API_KEYS: benchKeys(Math.ceil(opts.subscribers / opts.perKey)).setting,
            USE_PUBLIC_RPCS: 'false',
            [`RPC_URL_${CHAIN}`]: proxy.url,
            ...(opts.profileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDirOf(opts.profileDir, build, run)}` } : {}),
          },
        })
        try {
          // warm: the chain's window and the stream route's bundle (one open, closed)
          const warm = open(service.port, streamPath(build, CHAIN), benchKeys(1).headers[0]!)
          for (let i = 0; i < 300 && warm.firstAt === undefined; i++) await sleep(100)
          warm.socket.destroy()
          await sleep(2_000)
          const row = await burst(service, { chainId: CHAIN, nodeUrl: devnet.url, ...opts, path: streamPath(build, CHAIN) })
          rows.push({ label: build.label, commit, ...row })
          opts.log(`  ${JSON.stringify(rows.at(-1))}`)
        } finally {
          await service.stop()
        }
      }
    }
  } finally {
    await proxy.close().catch(() => {})
    await devnet.stop().catch(() => {})
  }
  return rows
}
