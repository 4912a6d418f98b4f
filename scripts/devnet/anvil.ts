import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { createServer } from 'node:net'
import { rpc } from './json-rpc'
import { stopChild, waitForChild } from './process'

export type AnvilOptions = {
  /** Default: a free port on 127.0.0.1. */
  port?: number
  chainId?: number
  /** Block gas limit; the devnet default (1,050,000) makes 25 transfers the EIP-1559 target. */
  gasLimit?: number
  /** e.g. "berlin" for a chain without EIP-1559. */
  hardfork?: string
  accounts?: number
  /** Genesis timestamp, unix seconds. */
  timestamp?: number
  /** A genesis file (anvil --init): e.g. one with an excessBlobGas, so the blob base fee starts above 1 wei. */
  init?: string
}

export type AnvilNode = { url: string; port: number; chainId: number; process: ChildProcess; stop(): Promise<void> }

/** The anvil binary shipped by the npm package @foundry-rs/anvil (its platform package). */
function anvilBinary(): string {
  const require = createRequire(import.meta.url)
  const arch = process.arch === 'x64' ? 'amd64' : process.arch
  try {
    const pkg = require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`)
    const bin = join(dirname(pkg), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil')
    if (existsSync(bin)) return bin
  } catch {
    // fall through to the wrapper
  }
  return join(dirname(require.resolve('@foundry-rs/anvil/package.json')), 'bin.mjs')
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.unref()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => resolve(port))
    })
  })
}

/** Starts anvil on loopback with mining off (the caller seeds history, then turns mining on). */
export async function startAnvil(options: AnvilOptions = {}): Promise<AnvilNode> {
  const port = options.port ?? (await freePort())
  const chainId = options.chainId ?? 31337
  const args = [
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--chain-id',
    String(chainId),
    '--accounts',
    String(options.accounts ?? 100),
    '--balance',
    '1000000',
    '--gas-limit',
    String(options.gasLimit ?? 1_050_000),
    '--no-mining',
    '--silent',
  ]
  if (options.hardfork) args.push('--hardfork', options.hardfork)
  if (options.timestamp !== undefined) args.push('--timestamp', String(options.timestamp))
  if (options.init) args.push('--init', options.init)
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (d) => (stderr += String(d)))
  const url = `http://127.0.0.1:${port}`
  await waitForChild(
    child,
    () => rpc(url, 'eth_chainId'),
    15_000,
    () => `anvil on ${url}: ${stderr.trim()}`,
  )
  return { url, port, chainId, process: child, stop: () => stopChild(child) }
}
