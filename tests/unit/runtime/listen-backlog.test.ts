import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { LISTEN_BACKLOG, widenListenBacklog } from '@/lib/runtime/listen-backlog'

// the backlog as the kernel holds it: a listening socket's Send-Q in ss (iproute2)
const backlogOf = (port: number) =>
  Number(
    execFileSync('ss', ['-ltnH', `sport = :${port}`], { encoding: 'utf8' })
      .trim()
      .split(/\s+/)[2],
  )
const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'))

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))))
})

async function listening(): Promise<number> {
  const server = createServer((_req, res) => res.end('ok'))
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return (server.address() as AddressInfo).port
}

test("default: an HTTP server listening with Node's 511 takes the longer backlog, up to the kernel's cap, and still answers", async () => {
  const port = await listening()
  expect(backlogOf(port)).toBe(Math.min(511, somaxconn))
  expect(widenListenBacklog()).toBeGreaterThanOrEqual(1)
  expect(backlogOf(port)).toBe(Math.min(LISTEN_BACKLOG, somaxconn))
  expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('ok')
})

test('behavior: a server that is not listening is left alone', async () => {
  const idle = createServer()
  servers.push(idle)
  const port = await listening()
  widenListenBacklog(1_024)
  expect(idle.listening).toBe(false)
  expect(backlogOf(port)).toBe(Math.min(1_024, somaxconn))
})
