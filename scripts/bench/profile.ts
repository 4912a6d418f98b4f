// Reading V8 .cpuprofile files (node --cpu-prof): self time by where the code lives, and by function.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
type Profile = { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] }

/** Every .cpuprofile in `dir` (next start may run more than one process: each writes its own). */
export function readProfiles(dir: string): Profile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Profile)
}

/** Where a frame's code lives: the app's bundles, Next's server, a dependency, Node itself, or V8's own work. */
export function whereOf(url: string, fn: string): string {
  if (fn === '(idle)' || fn === '(program)' || fn === '(garbage collector)') return fn
  if (url.includes('/.next/server/middleware') || url.includes('/.next/server/edge')) return 'middleware bundle (the gate, Next adapter)'
  if (url.includes('/.next/server/')) return 'app bundles (route handlers, lib/, bundled viem/zod)'
  if (url.includes('/node_modules/next/')) return 'next (server, router, compiled deps)'
  if (url.includes('/node_modules/')) return 'other node_modules'
  if (url.startsWith('node:') || url === '') return 'node internals and natives'
  return 'other'
}

/**
 * Self time (µs) summed by where, busy time (all but idle), and the functions with the most self time; with `windows`
 * (µs on the monotonic clock, as the profile's timestamps and process.hrtime), only the samples inside them.
 */
export function summarize(
  profiles: Profile[],
  windows?: [number, number][],
): {
  busyUs: number
  byWhere: [string, number][]
  top: { name: string; where: string; us: number }[]
} {
  const byWhere = new Map<string, number>()
  const byFn = new Map<string, { name: string; where: string; us: number }>()
  let busyUs = 0
  for (const p of profiles) {
    const nodes = new Map(p.nodes.map((n) => [n.id, n]))
    let at = p.startTime
    p.samples.forEach((id, i) => {
      const n = nodes.get(id)
      const dt = p.timeDeltas[i] ?? 0
      at += dt
      if (windows && !windows.some(([from, to]) => at >= from && at <= to)) return
      if (!n || dt <= 0) return
      const { functionName, url, lineNumber } = n.callFrame
      const where = whereOf(url, functionName)
      if (where === '(idle)') return
      busyUs += dt
      byWhere.set(where, (byWhere.get(where) ?? 0) + dt)
      const file = url.split('/').slice(-2).join('/')
      const key = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`
      const f = byFn.get(key) ?? { name: key, where, us: 0 }
      f.us += dt
      byFn.set(key, f)
    })
  }
  return {
    busyUs,
    byWhere: [...byWhere].sort((a, b) => b[1] - a[1]),
    top: [...byFn.values()].sort((a, b) => b.us - a.us),
  }
}
