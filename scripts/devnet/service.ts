import { spawn, type ChildProcess } from 'node:child_process'
import { appendFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { freePort } from './anvil'
import { stopChild, waitForChild } from './process'

export type Service = { url: string; port: number; process: ChildProcess; output: () => string; stop(): Promise<void> }

/** The `next` of the project in `cwd` (one React per build: a twin directory has its own node_modules). */
function nextBin(cwd: string): string {
  return createRequire(join(cwd, 'package.json')).resolve('next/dist/bin/next')
}

/** Runs `next build` in `cwd` (inherits stdio so the user sees progress). */
export function buildService(cwd = process.cwd()): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [nextBin(cwd), 'build'], {
      cwd,
      stdio: 'inherit',
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    })
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`next build exited with ${code}`))))
  })
}

/**
 * Starts `next start` on 127.0.0.1 with the given environment (merged over the current one) and
 * waits until it answers HTTP.
 */
export async function startService(options: {
  env: Record<string, string>
  port?: number
  cwd?: string
  logFile?: string
}): Promise<Service> {
  const port = options.port ?? (await freePort())
  const cwd = options.cwd ?? process.cwd()
  const child = spawn(process.execPath, [nextBin(cwd), 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...options.env },
  })
  let log = ''
  const record = (d: unknown) => {
    log += String(d)
    if (options.logFile) appendFileSync(options.logFile, String(d))
  }
  child.stdout?.on('data', record)
  child.stderr?.on('data', record)
  const url = `http://127.0.0.1:${port}`
  await waitForChild(
    child,
    () => fetch(`${url}/favicon.ico`),
    30_000,
    () => `next start on ${url}:\n${log}`,
  )
  return { url, port, process: child, output: () => log, stop: () => stopChild(child) }
}
