import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createConnection } from 'node:net'
import { freePort } from './anvil'
import { stopChild, waitForChild } from './process'

export type RedisServer = { url: string; port: number; process: ChildProcess; stop(): Promise<void> }

/** The redis-server binary (Debian's package; REDIS_SERVER overrides), or a clear error. */
function redisServerBinary(): string {
  const bin = process.env.REDIS_SERVER || 'redis-server'
  const probe = spawnSync(bin, ['--version'], { encoding: 'utf8' })
  if (probe.status !== 0) {
    throw new Error(`${bin} not found: run 'sudo apt-get install -y redis-server' (bash scripts/ensure-redis.sh does it as root)`)
  }
  return bin
}

/** Answers when a Redis server on `port` is up: it replies to a PING (+PONG, or -NOAUTH with a password set). */
function ping(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => socket.write('PING\r\n'))
    socket.setTimeout(500, () => socket.destroy(new Error('timeout')))
    socket.once('data', (d) => {
      socket.end()
      if (/^(\+PONG|-NOAUTH)/.test(String(d))) resolve()
      else reject(new Error(String(d)))
    })
    socket.once('error', reject)
  })
}

/**
 * Starts a throwaway redis-server on loopback: no persistence, no config file, on `port` (a free
 * one by default; pass the old port to bring a killed server back at the same URL), with
 * `password` (requirepass) in the URL when given.
 */
export async function startRedis(options: { port?: number; password?: string } = {}): Promise<RedisServer> {
  const port = options.port ?? (await freePort())
  const child = spawn(
    redisServerBinary(),
    [
      '--bind',
      '127.0.0.1',
      '--port',
      String(port),
      '--save',
      '',
      '--appendonly',
      'no',
      '--protected-mode',
      'yes',
      ...(options.password ? ['--requirepass', options.password] : []),
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let log = ''
  child.stdout?.on('data', (d) => (log += String(d)))
  child.stderr?.on('data', (d) => (log += String(d)))
  await waitForChild(
    child,
    () => ping(port),
    10_000,
    () => `redis-server on ${port}:\n${log}`,
  )
  const auth = options.password ? `:${encodeURIComponent(options.password)}@` : ''
  return { url: `redis://${auth}127.0.0.1:${port}`, port, process: child, stop: () => stopChild(child) }
}
