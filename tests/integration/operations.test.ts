import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { freePort } from '@/scripts/devnet/anvil'
import { startService, type Service } from '@/scripts/devnet/service'
import { openSse } from '@/scripts/stream/sse-client'
import { startFakeRpc, type FakeRpc } from '../support/fake-rpc'
import { chainOf } from '../support/family-chains'
import { api, basic, ctx, eventually } from './helpers'

// A service of its own: one chain whose node a test breaks and mends (readiness), a failed-auth limit
// of 3 a minute behind a trusted proxy (the throttle), and no METRICS_TOKEN (/metrics off).
const CHAIN = 31350
const CRED: [string, string] = ['ops', 'ops-secret-of-the-operations-test']
const LIMIT = 3
const MAX_STALE_SECONDS = 2
/** The fake chain's block interval, as its timestamps say: the window's cache period. */
const SLOT_MS = 1_000
const HEAD = 23_000_000
/** 500 calm blocks, 1 s apart. */
const chain = () =>
  chainOf(
    Array.from({ length: 500 }, () => ({ baseFee: 10_000_000_000n, ratio: 0.5, tips: [1_000_000_000n, 2_000_000_000n] })),
    { head: HEAD, slotMs: SLOT_MS, next: 10_000_000_000n },
  )

let node: FakeRpc
let svc: Service

beforeAll(async () => {
  node = await startFakeRpc({ chainId: CHAIN, ...chain(), mode: 'http500' })
  svc = await startService({
    env: {
      API_KEYS: CRED.join(':'),
      USE_PUBLIC_RPCS: 'false',
      REQUEST_LOG: 'false',
      RPC_TIMEOUT_MS: '1500',
      MAX_STALE_SECONDS: String(MAX_STALE_SECONDS),
      // the fake chain's blocks are from 2025 by their timestamps
      MAX_HEAD_AGE_SECONDS: '0',
      AUTH_FAILURE_LIMIT: String(LIMIT),
      TRUST_PROXY: 'true',
      [`RPC_URL_${CHAIN}`]: node.url,
    },
  })
})
afterAll(async () => {
  await svc?.stop()
  await node?.close()
})

const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${svc.url}${path}`, { headers })
  const text = await res.text()
  let body: Record<string, unknown> = {}
  try {
    body = JSON.parse(text) as Record<string, unknown>
  } catch {
    // not JSON: the assertions on body fail
  }
  return { status: res.status, headers: res.headers, body }
}
const setMode = (mode: FakeRpc['mode']) => {
  node.mode = mode
}
const feeHistoryCalls = () => node.calls.filter((m) => m === 'eth_feeHistory').length

describe('/healthz', () => {
  test('behavior: 200 JSON without credentials and without asking the node, even while the node fails', async () => {
    const requestsBefore = node.requests()
    for (const headers of [{}, { authorization: 'Basic bm9ib2R5Om5vdGhpbmc=' }, { 'x-gas-api-identity': 'ops.forged' }] as Record<
      string,
      string
    >[]) {
      const res = await get('/healthz', headers)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
      expect(res.body).toEqual({ status: 'ok' })
    }
    expect(node.requests()).toBe(requestsBefore)
  })
})

describe('/readyz', () => {
  test('behavior: 503 naming a chain never read; 200 once it is read; 503 "stale" once its window is older than MAX_STALE_SECONDS; 200 again', async () => {
    setMode('http500')
    const never = await get('/readyz')
    expect(never.status).toBe(503)
    expect(never.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(never.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable' })
    expect(never.body.message).toMatch(new RegExp(`chain ${CHAIN} never read`))
    expect(never.body.chains).toEqual([expect.objectContaining({ chainId: CHAIN, ready: false, reason: 'never read' })])

    setMode('ok')
    const ready = await eventually(async () => {
      const r = await get('/readyz')
      return r.status === 200 ? r : undefined
    }, 'readiness after the node was mended')
    expect(ready.body).toMatchObject({ status: 'ready', chains: [{ chainId: CHAIN, ready: true, block: HEAD }] })

    setMode('http500')
    const stale = await eventually(async () => {
      const r = await get('/readyz')
      return r.status === 503 ? r : undefined
    }, 'the window to outlive MAX_STALE_SECONDS')
    const [chain] = stale.body.chains as { ageSeconds: number; reason: string }[]
    expect(chain).toMatchObject({ chainId: CHAIN, ready: false, reason: 'stale', block: HEAD })
    expect(chain!.ageSeconds).toBeGreaterThan(MAX_STALE_SECONDS)
    expect(stale.body.message).toBe(`Not ready: chain ${CHAIN} stale for ${chain!.ageSeconds} s.`)

    setMode('ok')
    await eventually(async () => ((await get('/readyz')).status === 200 ? true : undefined), 'readiness after the second mend')
  })

  test("behavior: probes cost at most the feed's one read per cache period: 50 concurrent probes on a fresh window read nothing more", async () => {
    setMode('ok')
    await eventually(async () => ((await get('/readyz')).status === 200 ? true : undefined), 'readiness')
    const before = feeHistoryCalls()
    const started = Date.now()
    const answers = await Promise.all(Array.from({ length: 50 }, () => get('/readyz')))
    const elapsed = Date.now() - started
    expect(answers.every((a) => a.status === 200)).toBe(true)
    // one read per cache period (the chain's 1 s interval) the probes spanned, at most
    expect(feeHistoryCalls() - before).toBeLessThanOrEqual(Math.ceil(elapsed / SLOT_MS) + 1)
  })
})

describe('/metrics without METRICS_TOKEN', () => {
  test('error: 404 with the JSON error body, whatever credentials come with it', async () => {
    for (const headers of [{}, { authorization: basic(CRED) }, { authorization: 'Bearer anything-at-all-here' }] as Record<
      string,
      string
    >[]) {
      const res = await get('/metrics', headers)
      expect(res.status).toBe(404)
      expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' })
    }
  })
})

describe('failed authentications', () => {
  const from = (address: string, cred: [string, string] = CRED) => ({ authorization: basic(cred), 'x-forwarded-for': address })
  const wrong: [string, string] = [CRED[0], 'not-the-secret-of-ops']

  test(`error: past ${LIMIT} a minute from one address, 429 with Retry-After and the JSON body, right secret or not`, async () => {
    const address = '198.51.100.7'
    for (let i = 0; i < LIMIT; i++) expect((await get(`/networks/${CHAIN}/busyThreshold`, from(address, wrong))).status).toBe(401)
    for (const cred of [wrong, CRED]) {
      const res = await get(`/networks/${CHAIN}/busyThreshold`, from(address, cred))
      expect(res.status).toBe(429)
      const retry = Number(res.headers.get('retry-after'))
      expect(retry).toBeGreaterThanOrEqual(1)
      expect(retry).toBeLessThanOrEqual(60)
      expect(res.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' })
    }
    // behind the trusted proxy, the address is the last hop: a client cannot escape by prepending its own
    expect((await get(`/networks/${CHAIN}/busyThreshold`, from(`203.0.113.1, ${address}`))).status).toBe(429)
    // another address is not affected
    const other = await get(`/networks/${CHAIN}/busyThreshold`, from('198.51.100.8'))
    expect([401, 429]).not.toContain(other.status)
  })

  test('behavior: a caller whose exact credentials verified before passes from a throttled address', async () => {
    const address = '198.51.100.9'
    setMode('ok')
    expect([401, 429]).not.toContain((await get(`/networks/${CHAIN}/busyThreshold`, from(address))).status)
    for (let i = 0; i < LIMIT; i++) expect((await get(`/networks/${CHAIN}/busyThreshold`, from(address, wrong))).status).toBe(401)
    expect((await get(`/networks/${CHAIN}/busyThreshold`, from(address, wrong))).status).toBe(429)
    expect([401, 429]).not.toContain((await get(`/networks/${CHAIN}/busyThreshold`, from(address))).status)
  })
})

describe('response headers', () => {
  test('behavior: pages carry a CSP with a fresh nonce on every script, frame-ancestors none, nosniff and X-Frame-Options', async () => {
    const nonces = new Set<string>()
    for (const path of ['/', `/networks/${ctx().chains.live}`, '/']) {
      const res = await fetch(`${ctx().api}${path}`, { headers: { authorization: basic(ctx().credentials.plain) } })
      expect(res.status).toBe(200)
      const csp = res.headers.get('content-security-policy') ?? ''
      expect(csp).toContain("frame-ancestors 'none'")
      expect(csp).toContain("object-src 'none'")
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/)
      const nonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]+)' 'strict-dynamic'/.exec(csp)?.[1]
      expect(nonce).toBeDefined()
      nonces.add(nonce!)
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('x-frame-options')).toBe('DENY')
      const html = await res.text()
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])
      expect(scripts.length).toBeGreaterThan(0)
      for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`)
    }
    expect(nonces.size).toBe(3)
  })

  test("behavior: API answers and the middleware's own errors carry nosniff and a CSP that allows nothing", async () => {
    for (const auth of [undefined, null]) {
      const res = await api(`/networks/${ctx().chains.live}/busyThreshold`, auth === undefined ? {} : { auth })
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    }
  })
})

describe('configuration refused at start', () => {
  const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next')
  async function start(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
    const port = await freePort()
    const child = spawn(process.execPath, [nextBin, 'start', '-p', String(port), '-H', '127.0.0.1'], {
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', USE_PUBLIC_RPCS: 'false', API_KEYS: CRED.join(':'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (d) => (output += String(d)))
    child.stderr.on('data', (d) => (output += String(d)))
    const deadline = setTimeout(() => child.kill('SIGKILL'), 60_000)
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)))
    clearTimeout(deadline)
    return { code, output }
  }

  test.each([
    [
      'a plain secret shorter than 16 characters',
      { API_KEYS: 'weak:fifteen-chars-x' },
      "API_KEYS entry 1 ('weak'): the secret is shorter than 16 characters",
      ['fifteen-chars-x'],
    ],
    [
      'a sha256: entry that is not 64 hex digits',
      { API_KEYS: `ok:${CRED[1]},h:sha256:abc123` },
      "API_KEYS entry 2 ('h'): the sha256: digest is not 64 hex digits",
      [CRED[1], 'abc123'],
    ],
    [
      'a plain-http RPC URL to another host',
      { RPC_URL_1: 'http://rpc.example/v3/PROVIDER-KEY-0123' },
      'RPC_URL_1 holds a plain http:// URL',
      ['rpc.example', 'PROVIDER-KEY-0123'],
    ],
  ])('error: %s: one JSON log line naming it, exit code 1, the value never printed', async (_, env, says, secrets) => {
    const { code, output } = await start(env)
    expect(code).toBe(1)
    const line = output.split('\n').find((l) => l.includes('"configuration refused at start"'))
    expect(line).toBeDefined()
    expect(JSON.parse(line!)).toMatchObject({ level: 'error', error: 'ConfigError' })
    expect(line).toContain(says)
    for (const s of secrets) expect(output).not.toContain(s)
  })
})

describe('shutdown', () => {
  test('behavior: at SIGTERM every open stream ends at once and the process exits, not after STREAM_MAX_SECONDS', async () => {
    const own = await startFakeRpc({ chainId: CHAIN, ...chain() })
    const service = await startService({
      env: {
        API_KEYS: CRED.join(':'),
        USE_PUBLIC_RPCS: 'false',
        REQUEST_LOG: 'false',
        MAX_HEAD_AGE_SECONDS: '0',
        [`RPC_URL_${CHAIN}`]: own.url,
      },
    })
    try {
      const stream = await openSse(`${service.url}/networks/${CHAIN}/stream`, { authorization: basic(CRED) })
      expect(stream.status).toBe(200)
      await stream.next((e) => e.event === 'fees', 15_000)
      const exited = new Promise<number | null>((resolve) => service.process.once('exit', (code) => resolve(code)))
      service.process.kill('SIGTERM')
      // STREAM_MAX_SECONDS is 280 s by default: both well before it
      const within = <T>(p: Promise<T>, what: string) =>
        Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} after 30 s`)), 30_000))])
      await within(stream.ended, 'the stream still open')
      await within(exited, 'the process still running')
    } finally {
      await service.stop().catch(() => {})
      await own.close()
    }
  }, 90_000)
})
