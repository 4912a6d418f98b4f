import { spawn, type ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { freePort } from '@/scripts/devnet/anvil'
import { fromAddress } from '../support/from-address'
import { basic, eventually } from './helpers'

// The service started exactly as the README's quick start says (`npm run demo`; PORT picks a free port, as the README
// documents), with nothing else configured: TRUST_PROXY unset, the failure throttle at its default. A client on one
// address forging X-Forwarded-For buys nothing: it cannot lock out another address, nor escape its own throttle.
let demo: ChildProcess
let origin = ''
let credentials: [string, string] = ['', '']
let chainId = 0
let output = ''

beforeAll(async () => {
  const port = await freePort()
  demo = spawn('npm', ['run', 'demo'], {
    env: { ...process.env, PORT: String(port), DEMO_API_SECRET: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  demo.stdout!.on('data', (d) => (output += String(d)))
  demo.stderr!.on('data', (d) => (output += String(d)))
  await eventually(
    async () => {
      if (demo.exitCode !== null) throw new Error(`npm run demo exited (${demo.exitCode}):\n${output}`)
      return /Press Ctrl\+C to stop/.test(output) ? true : undefined
    },
    'npm run demo to print its URL and key',
    240_000,
    250,
  )
  origin = /Gas API is running at (\S+)/.exec(output)![1]!.replace('localhost', '127.0.0.1')
  credentials = [/API key:\s+(\S+)/.exec(output)![1]!, /API key secret:\s+(\S+)/.exec(output)![1]!]
  chainId = Number(/\/networks\/(\d+)\/suggestedGasFees/.exec(output)![1])
}, 300_000)
afterAll(async () => {
  if (demo?.pid === undefined || demo.exitCode !== null) return
  const exited = new Promise((r) => demo.on('exit', r))
  process.kill(-demo.pid, 'SIGTERM')
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))])
  if (demo.exitCode === null) process.kill(-demo.pid, 'SIGKILL')
})

test('behavior: under `npm run demo`, a forged X-Forwarded-For neither locks out another address nor escapes the failure throttle', async () => {
  const path = `${origin}/networks/${chainId}/busyThreshold`
  const wrong = basic([credentials[0], 'not-the-demo-secret-at-all'])
  // the default AUTH_FAILURE_LIMIT (10) from 127.0.0.31, each claiming to be 127.0.0.32
  let failures = 0
  for (; failures < 50; failures++) {
    const res = await fromAddress('127.0.0.31', path, { authorization: wrong, 'x-forwarded-for': '127.0.0.32' })
    if (res.status === 429) break
    expect(res.status).toBe(401)
  }
  expect(failures).toBe(10)
  // a new forged address each time does not reopen the door
  for (const forged of ['198.51.100.1', '127.0.0.33', '::1'])
    expect((await fromAddress('127.0.0.31', path, { authorization: wrong, 'x-forwarded-for': forged })).status).toBe(429)
  // the address it named gets in with the demo's valid credentials, never used before
  const victim = await fromAddress('127.0.0.32', path, { authorization: basic(credentials) })
  expect(victim.status).toBe(200)
  expect(JSON.parse(victim.text)).toEqual({ busyThreshold: expect.stringMatching(/^\d+(\.\d+)?$/) })
}, 120_000)
