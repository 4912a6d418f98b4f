import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { promisify } from 'node:util'

export type LoadResult = { rps: number; p50: number; p99: number; errors: number; requests: number }

const run = promisify(execFile)

/**
 * Runs autocannon against one URL in its own process (so the load generator does not share an
 * event loop with the devnet's traffic) and returns throughput, latency percentiles (ms) and errors.
 */
export async function load(
  url: string,
  opts: {
    connections: number
    seconds: number
    headers?: Record<string, string>
    /** overall requests per second (autocannon -R); unset: as fast as it goes */ rate?: number
  },
): Promise<LoadResult> {
  const cli = createRequire(import.meta.url).resolve('autocannon/autocannon.js')
  const args = [cli, '-j', '-c', String(opts.connections), '-d', String(opts.seconds)]
  if (opts.rate !== undefined) args.push('-R', String(opts.rate))
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push('-H', `${k}=${v}`)
  args.push(url)
  const { stdout } = await run(process.execPath, args, { maxBuffer: 16 * 1024 * 1024, timeout: (opts.seconds + 30) * 1000 })
  const r = JSON.parse(stdout) as {
    requests: { average: number; total: number }
    latency: { p50: number; p99: number }
    errors: number
    timeouts: number
    non2xx: number
  }
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts + r.non2xx,
    requests: r.requests.total,
  }
}
