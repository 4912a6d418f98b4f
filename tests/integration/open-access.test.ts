import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { freePort } from '@/scripts/devnet/anvil'
import { startService, type Service } from '@/scripts/devnet/service'
import { fromAddress, openFromAddress } from '../support/from-address'
import { basic, ctx, eventually } from './helpers'

// Issue 40, tried the way it is attacked: a service started with TRUST_PROXY unset (the default), the keyless tier
// open, and clients on several real source addresses (127.0.0.x: every one is this machine's on Linux) that write
// whatever X-Forwarded-For they like. Every limit must count the address the connection came from.
const OA: [string, string] = ['oa', 'oa-secret-of-the-open-access-test']
const OB: [string, string] = ['ob', 'ob-secret-of-the-open-access-test']
const OC: [string, string] = ['oc', 'oc-secret-of-the-open-access-test']
const WEB = 'web-key-of-the-open-access-test-0123'
const KEYLESS_LIMIT = 4
const FAILURE_LIMIT = 3
const PER_KEY_STREAMS = 2
const KEYLESS_STREAMS = 3
const ALL_STREAMS = 5

let svc: Service
let logFile: string
const chain = () => ctx().chains.live
const url = (path: string) => `${svc.url}${path}`
const wrong = (key: string) => basic([key, 'not-the-secret-of-this-key-at-all'])

beforeAll(async () => {
  logFile = join(mkdtempSync(join(tmpdir(), 'gas-api-open-')), 'server.log')
  svc = await startService({
    logFile,
    env: {
      API_KEYS: [OA, OB, OC].map((c) => c.join(':')).join(','),
      PUBLIC_API_KEYS: `web:${WEB}`,
      PUBLIC_ACCESS: 'true',
      PUBLIC_RATE_LIMIT: `${KEYLESS_LIMIT}/3600`,
      AUTH_FAILURE_LIMIT: String(FAILURE_LIMIT),
      STREAM_MAX_PER_KEY: String(PER_KEY_STREAMS),
      PUBLIC_STREAM_LIMIT: String(KEYLESS_STREAMS),
      STREAM_MAX_TOTAL: String(ALL_STREAMS),
      CORS_ORIGINS: '*',
      TRUST_PROXY: '',
      USE_PUBLIC_RPCS: 'false',
      [`RPC_URL_${ctx().chains.live}`]: ctx().nodeUrl,
    },
  })
}, 120_000)
afterAll(async () => {
  await svc?.stop()
})

describe('the client address is the TCP peer', () => {
  test('behavior: the keyless quota counts the connection, whatever X-Forwarded-For says; naming another address spends none of its quota', async () => {
    const path = `/networks/${chain()}/busyThreshold`
    // 127.0.0.11 writes a new X-Forwarded-For on every request, the victim's (127.0.0.12) among them
    for (let i = 0; i < KEYLESS_LIMIT; i++) {
      const res = await fromAddress('127.0.0.11', url(path), { 'x-forwarded-for': i % 2 ? '127.0.0.12' : `198.51.100.${i}` })
      expect(res.status).toBe(200)
      expect(res.headers['ratelimit-remaining']).toBe(String(KEYLESS_LIMIT - 1 - i))
    }
    const over = await fromAddress('127.0.0.11', url(path), { 'x-forwarded-for': '203.0.113.250' })
    expect(over.status).toBe(429)
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0)
    expect(JSON.parse(over.text)).toMatchObject({ statusCode: 429 })
    // the victim's quota is whole
    const victim = await fromAddress('127.0.0.12', url(path))
    expect(victim.status).toBe(200)
    expect(victim.headers['ratelimit-remaining']).toBe(String(KEYLESS_LIMIT - 1))
  })

  test("error: another address's forged failures never turn away valid credentials; the guesser's own address is throttled", async () => {
    const path = `/networks/${chain()}/busyThreshold`
    // 127.0.0.13 guesses oa's secret, claiming to be 127.0.0.14
    for (let i = 0; i < FAILURE_LIMIT; i++)
      expect((await fromAddress('127.0.0.13', url(path), { authorization: wrong('oa'), 'x-forwarded-for': '127.0.0.14' })).status).toBe(401)
    const throttled = await fromAddress('127.0.0.13', url(path), { authorization: wrong('oa'), 'x-forwarded-for': '127.0.0.14' })
    expect(throttled.status).toBe(429)
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0)
    // the guesser's own address is refused before new credentials are looked at, right ones included
    expect((await fromAddress('127.0.0.13', url(path), { authorization: basic(OC) })).status).toBe(429)
    // the address it named: oa's valid credentials, never used before on this instance, pass
    expect((await fromAddress('127.0.0.14', url(path), { authorization: basic(OA) })).status).toBe(200)
  })
})

describe('a ceiling on every open door', () => {
  test('behavior: keyless chain pages count under PUBLIC_RATE_LIMIT with the API, with RateLimit headers, then a JSON 429', async () => {
    const pages = ['/', `/networks/${chain()}`]
    for (let i = 0; i < KEYLESS_LIMIT; i++) {
      const res = await fromAddress('127.0.0.15', url(pages[i % 2]!), { 'x-forwarded-for': `198.51.100.${i}` })
      expect(res.status).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/html/)
      expect(res.headers['ratelimit-limit']).toBe(String(KEYLESS_LIMIT))
      expect(res.headers['ratelimit-remaining']).toBe(String(KEYLESS_LIMIT - 1 - i))
    }
    for (const path of [...pages, `/networks/${chain()}/suggestedGasFees`]) {
      const over = await fromAddress('127.0.0.15', url(path), { 'x-forwarded-for': '203.0.113.9' })
      expect(over.status).toBe(429)
      expect(over.headers['content-type']).toMatch(/^application\/json/)
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0)
      expect(over.headers['ratelimit-remaining']).toBe('0')
    }
  })

  test('behavior: streams have a ceiling per address, for the keyless tier and for the instance: 429 or 503 with Retry-After and CORS; a closed stream gives its slot back', async () => {
    const path = url(`/networks/${chain()}/stream`)
    const origin = { origin: 'https://any.example' }
    const open: { close(): void }[] = []
    try {
      // one address, a new X-Forwarded-For each time: its own ceiling
      for (let i = 0; i < PER_KEY_STREAMS; i++) {
        const s = await openFromAddress('127.0.0.16', path, { ...origin, 'x-forwarded-for': `198.51.100.${i}` })
        expect(s.status).toBe(200)
        open.push(s)
      }
      const own = await openFromAddress('127.0.0.16', path, { ...origin, 'x-forwarded-for': '198.51.100.77' })
      expect(own.status).toBe(429)
      expect(Number(own.headers['retry-after'])).toBeGreaterThan(0)
      expect(own.headers['access-control-allow-origin']).toBe('*')
      // the keyless tier's total: one more address fills it, the next is refused
      const third = await openFromAddress('127.0.0.17', path, origin)
      expect(third.status).toBe(200)
      open.push(third)
      const tier = await openFromAddress('127.0.0.18', path, origin)
      expect(tier.status).toBe(503)
      expect(JSON.parse(tier.text).message).toMatch(/keyless tier holds 3 open streams/)
      expect(Number(tier.headers['retry-after'])).toBeGreaterThan(0)
      expect(tier.headers['access-control-allow-origin']).toBe('*')
      // every caller together: keyed streams fill the instance, the next keyed one is refused
      for (let i = 0; i < ALL_STREAMS - KEYLESS_STREAMS; i++) {
        const s = await openFromAddress('127.0.0.19', path, { ...origin, authorization: basic(OB) })
        expect(s.status).toBe(200)
        open.push(s)
      }
      const full = await openFromAddress('127.0.0.19', path, { ...origin, authorization: basic(OA) })
      expect(full.status).toBe(503)
      expect(JSON.parse(full.text).message).toMatch(/instance holds 5 open streams/)
      expect(full.headers['access-control-allow-origin']).toBe('*')
      // a client that hangs up gives its slot back: the instance takes exactly one more stream, then is full again
      open.pop()!.close()
      const again = await eventually(async () => {
        const s = await openFromAddress('127.0.0.19', path, { ...origin, authorization: basic(OA) })
        if (s.status === 200) return s
        s.close()
      }, 'a slot given back by a stream whose client hung up')
      open.push(again)
      expect((await openFromAddress('127.0.0.19', path, { ...origin, authorization: basic(OC) })).status).toBe(503)
    } finally {
      for (const s of open) s.close()
    }
  })

  test('behavior: a keyless multi-chain stream takes one slot per chain it names, under the per-address and keyless-tier ceilings', async () => {
    // 6001 and 6002 are not served here: a list that names them still takes their slots
    const multi = (...ids: number[]) => url(`/v1/stream?chainIds=${ids.join(',')}`)
    // each try from an address of its own (a refused list still spends its address's keyless quota, one per chain)
    let next = 30
    const fresh = () => {
      if (next > 250) throw new Error('out of loopback addresses')
      return `127.0.0.${next++}`
    }
    // opens `target` until it is not refused for the tier's room (the test before's streams are let go a moment after
    // their clients hung up)
    const whenRoom = (target: string) =>
      eventually(async () => {
        const s = await openFromAddress(fresh(), target)
        if (s.status !== 503) return s
      }, "room in the keyless tier's 3 streams")
    const open: { close(): void }[] = []
    try {
      const two = await whenRoom(multi(chain(), 6001))
      open.push(two)
      expect(two.status).toBe(200)
      const one = await whenRoom(multi(chain()))
      open.push(one)
      expect(one.status).toBe(200)
      // the two lists hold the tier's 3 streams: one more chain, from another address, does not fit
      const single = await openFromAddress('127.0.0.24', url(`/networks/${chain()}/stream`))
      expect(single.status).toBe(503)
      expect(JSON.parse(single.text).message).toMatch(/keyless tier holds 3 open streams/)
      expect((await openFromAddress('127.0.0.24', multi(chain()))).status).toBe(503)
      for (const s of open.splice(0)) s.close()
      // three chains from one address: past its own ceiling of 2 once the tier has room
      const own = await whenRoom(multi(chain(), 6001, 6002))
      open.push(own)
      expect(own.status).toBe(429)
      expect(JSON.parse(own.text).message).toMatch(/names 3 chains .* more than the 2 this client address may hold, so it never opens/)
    } finally {
      for (const s of open) s.close()
    }
  })
})

describe('a key from a path is never echoed or logged', () => {
  test("error: Next's slash and dot-segment redirects, the image optimizer, upgrades and the not-found answers carry no /v3/<key>/ key", async () => {
    const c = chain()
    // request targets exactly as sent: Next's router would answer each of these with a 308 repeating the URL
    const targets = [
      `/v3/${WEB}//metrics`,
      `/v3/${WEB}//networks/${c}/busyThreshold`,
      `/v3/${WEB}/networks/${c}/busyThreshold/`,
      `/v3/${WEB}\\networks\\${c}\\busyThreshold`,
      `//v3/${WEB}/networks/${c}/busyThreshold`,
      `/\\v3/${WEB}/networks/${c}/busyThreshold`,
      `http://127.0.0.1/v3/${WEB}/networks/${c}/busyThreshold`,
      `/v3/${WEB}/networks/${c}/busyThreshold/.`,
      `/v3/${WEB}/networks/${c}/busyThreshold/%2e`,
      `/./v3/${WEB}/networks/${c}/busyThreshold/`,
      `/v3/${WEB}/networks/${c}/busyThreshold#//x`,
      `/v3/${WEB}/networks/${c}/notAnEndpoint`,
      `/v3/${WEB}/networks/${c}`,
      `/v3/${WEB}/nowhere/`,
      `/v3/${WEB}/x/..`,
      `/v3/${WEB}/.`,
      `/_next/image?url=${encodeURIComponent(`/v3/${WEB}/networks/${c}/busyThreshold`)}&w=64&q=75`,
      `/_next/image/?url=/v3/${WEB}/networks/${c}/busyThreshold&w=64&q=75`,
      `/_next/image?url=${encodeURIComponent(`http://127.0.0.1:${svc.port}/v3/${WEB}/x`)}&w=64&q=75`,
    ]
    const answers: { target: string; method: string; status: number }[] = []
    for (const target of targets)
      for (const method of ['GET', 'HEAD', 'OPTIONS']) {
        const res = await fromAddress('127.0.0.20', svc.url, { origin: 'https://any.example' }, method, target)
        answers.push({ target, method, status: res.status })
        expect([301, 302, 307, 308], `${method} ${target}`).not.toContain(res.status)
        expect(res.raw, `${method} ${target}`).not.toContain(WEB)
      }
    // served as the path Next would have redirected to: the read path answers as itself
    const read = answers.filter((a) => a.method === 'GET' && a.target.includes('busyThreshold') && !a.target.includes('_next'))
    expect(read.map((a) => a.status)).toEqual(read.map(() => 200))
    // an upgrade is refused before any credential is looked at
    const upgrade = await fromAddress('127.0.0.20', url(`/v3/${WEB}/networks/${c}/busyThreshold`), {
      connection: 'Upgrade',
      upgrade: 'websocket',
    })
    expect(upgrade.status).toBe(400)
    expect(upgrade.raw).not.toContain(WEB)
    // the log: wait for this test's last request line, then look at the whole log
    const marker = await fromAddress('127.0.0.20', url(`/networks/${c}/busyThreshold`), { authorization: basic(OC) })
    expect(marker.status).toBe(200)
    await eventually(
      async () =>
        readFileSync(logFile, 'utf8')
          .split('\n')
          .some((l) => l.includes('"route":"busyThreshold"') && l.includes('"key":"oc"'))
          ? true
          : undefined,
      "the marker request's log line",
    )
    expect(readFileSync(logFile, 'utf8')).not.toContain(WEB)
  })
})

describe('one name per credential', () => {
  const nextBin = createRequire(join(process.cwd(), 'package.json')).resolve('next/dist/bin/next')
  /** Starts `next start` with `env` and waits for it to exit (a refused start), up to 60 s. */
  async function refusedStart(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
    const port = await freePort()
    const child = spawn(process.execPath, [nextBin, 'start', '-p', String(port), '-H', '127.0.0.1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', USE_PUBLIC_RPCS: 'false', ...env },
    })
    let output = ''
    child.stdout.on('data', (d) => (output += String(d)))
    child.stderr.on('data', (d) => (output += String(d)))
    const kick = setInterval(() => void fetch(`http://127.0.0.1:${port}/healthz`).catch(() => {}), 500)
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    clearInterval(kick)
    clearTimeout(timer)
    return { code, output }
  }
  const KEY = 'unnamed-public-key-of-the-test-0123'
  const defaultName = `public-${createHash('sha256').update(KEY).digest('hex').slice(0, 12)}`

  test.each([
    [
      'an API_KEYS name equal to a public key default name',
      { API_KEYS: `${defaultName}:some-secret-0123456789`, PUBLIC_API_KEYS: KEY },
      /PUBLIC_API_KEYS entry 1 \(its default name\) has the same name as API_KEYS entry 1/,
    ],
    [
      "a public key's explicit name equal to another's default name",
      { API_KEYS: '', PUBLIC_API_KEYS: `${KEY}, ${defaultName}:another-public-key-0123456789` },
      /PUBLIC_API_KEYS entry 2 has the same name as PUBLIC_API_KEYS entry 1/,
    ],
    [
      "an API key named 'public', the keyless tier's",
      { API_KEYS: 'public:some-secret-0123456789', PUBLIC_API_KEYS: '' },
      /API_KEYS entry 1 takes the name 'public'/,
    ],
  ])(
    'error: %s is refused at start, naming the settings, never a key',
    async (_, env, message) => {
      const { code, output } = await refusedStart(env)
      expect(code).toBe(1)
      expect(output).toMatch(message)
      expect(output).not.toContain(KEY)
      expect(output).not.toContain('another-public-key')
    },
    90_000,
  )
})
