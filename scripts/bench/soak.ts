import { readFileSync } from 'node:fs'
import { startDevnet } from '../devnet/devnet'
import { startService } from '../devnet/service'
import { load } from './load'

export type SoakSample = { minute: number; rssMb: number; requests: number; errors: number; upstreamFrozen: boolean }

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Number(m[1]) / 1024 : Number.NaN
}

/**
 * Runs `next start` against a devnet under continuous load (autocannon, 10 connections, the four
 * endpoints in turn) for `minutes`, freezing the node (SIGSTOP) for 8 s every other minute, and
 * samples the server's RSS. Reports the samples and what the server printed about unhandled errors.
 */
export async function runSoak(opts: { minutes: number; log: (s: string) => void }) {
  const devnet = await startDevnet({ chainId: 31337, blockTimeSec: 2, seedBlocks: 520 })
  const service = await startService({
    env: {
      API_KEYS: 'soak:soak-secret-of-the-soak',
      RATE_LIMITS: 'soak=0',
      USE_PUBLIC_RPCS: 'false',
      REQUEST_LOG: 'false',
      RPC_URL_31337: devnet.url,
    },
  })
  const headers = { authorization: `Basic ${Buffer.from('soak:soak-secret-of-the-soak').toString('base64')}` }
  const endpoints = ['suggestedGasFees', 'busyThreshold', 'baseFeePercentile', 'baseFeeHistory']
  const samples: SoakSample[] = []
  try {
    await load(`${service.url}/networks/31337/suggestedGasFees`, { connections: 10, seconds: 5, headers }) // warm-up
    const start: SoakSample = { minute: 0, rssMb: rssMb(service.process.pid!), requests: 0, errors: 0, upstreamFrozen: false }
    samples.push(start)
    opts.log(`start: RSS ${start.rssMb.toFixed(1)} MB`)
    for (let minute = 1; minute <= opts.minutes; minute++) {
      const frozen = minute % 2 === 0
      let requests = 0
      let errors = 0
      for (const [i, e] of endpoints.entries()) {
        if (frozen && i === 1) {
          devnet.process.kill('SIGSTOP')
          setTimeout(() => devnet.process.kill('SIGCONT'), 8_000)
        }
        const r = await load(`${service.url}/networks/31337/${e}`, { connections: 10, seconds: 15, headers })
        requests += r.requests
        errors += r.errors
      }
      const s = { minute, rssMb: rssMb(service.process.pid!), requests, errors, upstreamFrozen: frozen }
      samples.push(s)
      opts.log(`minute ${minute}: RSS ${s.rssMb.toFixed(1)} MB, ${requests} requests, ${errors} errors${frozen ? ', node frozen 8 s' : ''}`)
    }
    const output = service.output()
    const unhandled = (output.match(/unhandled|UnhandledPromiseRejection/gi) ?? []).length
    return { samples, unhandled, serverAlive: service.process.exitCode === null }
  } finally {
    devnet.process.kill('SIGCONT')
    await service.stop()
    await devnet.stop()
  }
}
