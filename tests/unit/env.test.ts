import { describe, expect, test } from 'vitest'
import { ConfigError, getEdgeEnv, getIdentitySetting, getServerEnv } from '@/lib/env'

describe('getServerEnv', () => {
  test('default: defaults when nothing is set', () => {
    const env = getServerEnv({})
    expect(env).toMatchObject({ API_KEYS: '', USE_PUBLIC_RPCS: true, RPC_TIMEOUT_MS: 5000, MAX_STALE_SECONDS: 60, rpcUrls: {} })
  })

  test('args: RPC_URL_<id> takes one or several comma-separated URLs', () => {
    const env = getServerEnv({
      RPC_URL_1: 'https://a.example/v3/KEY, https://b.example',
      RPC_URL_10: 'http://127.0.0.1:8545',
      USE_PUBLIC_RPCS: 'false',
    })
    expect(env.rpcUrls).toEqual({ '1': ['https://a.example/v3/KEY', 'https://b.example'], '10': ['http://127.0.0.1:8545'] })
    expect(env.USE_PUBLIC_RPCS).toBe(false)
  })

  test('error: a bad URL names the variable, never its value', () => {
    expect(() => getServerEnv({ RPC_URL_5: 'ftp://secret-key@host' })).toThrow(ConfigError)
    expect(() => getServerEnv({ RPC_URL_5: 'ftp://secret-key@host' })).toThrow(/RPC_URL_5/)
    expect(() => getServerEnv({ RPC_URL_5: 'ftp://secret-key@host' })).not.toThrow(/secret-key/)
  })

  test('args: REDIS_URL (redis:// or rediss://) and REDIS_TIMEOUT_MS; unset means one instance on its own', () => {
    expect(getServerEnv({})).toMatchObject({ REDIS_URL: undefined, REDIS_TIMEOUT_MS: 250 })
    expect(getServerEnv({ REDIS_URL: 'rediss://user:pw@cache.example:6380/0', REDIS_TIMEOUT_MS: '100' })).toMatchObject({
      REDIS_URL: 'rediss://user:pw@cache.example:6380/0',
      REDIS_TIMEOUT_MS: 100,
    })
  })

  test('error: a REDIS_URL that is not redis:// names the variable, never its value', () => {
    for (const v of ['http://pw@cache.example', 'not a url']) {
      expect(() => getServerEnv({ REDIS_URL: v })).toThrow(/REDIS_URL/)
      expect(() => getServerEnv({ REDIS_URL: v })).not.toThrow(/pw@|not a url/)
    }
    expect(() => getServerEnv({ REDIS_TIMEOUT_MS: '5' })).toThrow(/REDIS_TIMEOUT_MS/)
  })

  test('error: out-of-range numbers', () => {
    expect(() => getServerEnv({ RPC_TIMEOUT_MS: '10' })).toThrow(/RPC_TIMEOUT_MS/)
    expect(() => getServerEnv({ USE_PUBLIC_RPCS: 'maybe' })).toThrow(/USE_PUBLIC_RPCS/)
  })
})

describe('security settings', () => {
  test('default: /metrics off, /readyz open, no proxy trusted, 10 failed authentications a minute, https-only RPC', () => {
    expect(getServerEnv({})).toMatchObject({
      METRICS_TOKEN: undefined,
      READYZ_AUTH: 'none',
      TRUST_PROXY: { kind: 'none' },
      AUTH_FAILURE_LIMIT: 10,
      STREAM_MAX_TOTAL: 5_000,
      PUBLIC_STREAM_LIMIT: 1_000,
      ALLOW_INSECURE_RPC: false,
    })
  })

  test('args: METRICS_TOKEN, READYZ_AUTH, TRUST_PROXY, AUTH_FAILURE_LIMIT', () => {
    expect(
      getServerEnv({ METRICS_TOKEN: 'm'.repeat(16), READYZ_AUTH: 'basic', TRUST_PROXY: 'true', AUTH_FAILURE_LIMIT: '0' }),
    ).toMatchObject({ METRICS_TOKEN: 'm'.repeat(16), READYZ_AUTH: 'basic', TRUST_PROXY: { kind: 'hops', hops: 1 }, AUTH_FAILURE_LIMIT: 0 })
  })

  test.each([
    ['3', { kind: 'hops', hops: 3 }],
    ['10.0.0.0/8, ::1', { kind: 'list' }],
  ])('args: TRUST_PROXY=%s', (text, want) => {
    expect(getServerEnv({ TRUST_PROXY: text }).TRUST_PROXY).toMatchObject(want)
  })

  test.each(['yes', '11', '10.0.0.0/8, 203.0.113.300'])('error: TRUST_PROXY=%s is refused, naming the entry, never an address', (text) => {
    expect(() => getServerEnv({ TRUST_PROXY: text })).toThrow(/TRUST_PROXY/)
    try {
      getServerEnv({ TRUST_PROXY: text })
    } catch (err) {
      expect((err as Error).message).not.toContain('203.0.113')
    }
  })

  test.each([
    [{ METRICS_TOKEN: 'short-token' }, /METRICS_TOKEN/, /short-token/],
    [{ READYZ_AUTH: 'bearer' }, /READYZ_AUTH/, /bearer/],
    [{ AUTH_FAILURE_LIMIT: '-1' }, /AUTH_FAILURE_LIMIT/, /-1/],
    [{ API_KEYS: 'alice:too-short' }, /API_KEYS entry 1 \('alice'\): the secret is shorter than 16 characters/, /too-short/],
    [{ API_KEYS: `bob:sha256:${'0'.repeat(63)}` }, /API_KEYS entry 1 \('bob'\): the sha256: digest is not 64 hex digits/, /0{63}/],
  ])('error: %o is refused, naming the variable, never the value', (source, names, value) => {
    expect(() => getServerEnv(source)).toThrow(names)
    expect(() => getServerEnv(source)).not.toThrow(value)
  })

  test('error: a plain http:// RPC URL to another host is refused without ALLOW_INSECURE_RPC, and never printed', () => {
    const url = 'http://rpc.example/v3/PROVIDER-KEY-123'
    expect(() => getServerEnv({ RPC_URL_1: `https://a.example,${url}` })).toThrow(
      /RPC_URL_1 holds a plain http:\/\/ URL.*ALLOW_INSECURE_RPC/,
    )
    expect(() => getServerEnv({ RPC_URL_1: url })).not.toThrow(/PROVIDER-KEY|rpc\.example/)
    expect(getServerEnv({ RPC_URL_1: url, ALLOW_INSECURE_RPC: 'true' }).rpcUrls['1']).toEqual([url])
    // loopback is this machine: plain http cannot leak there
    for (const local of [
      'http://127.0.0.1:8545',
      'http://127.8.0.1',
      'http://localhost:8545',
      'http://[::1]:8545',
      'http://node.localhost',
    ])
      expect(getServerEnv({ RPC_URL_1: local }).rpcUrls['1']).toEqual([local])
    for (const remote of ['http://127.0.0.1.example', 'http://10.0.0.5:8545', 'http://128.0.0.1'])
      expect(() => getServerEnv({ RPC_URL_1: remote })).toThrow(/RPC_URL_1/)
  })
})

describe('access settings (PUBLIC_API_KEYS, PUBLIC_ACCESS, PUBLIC_RATE_LIMIT, CORS_ORIGINS)', () => {
  const KEY = '0123456789abcdef0123456789abcdef'

  test('default: no public keys, no keyless tier (600/60 per address when on), CORS off', () => {
    expect(getServerEnv({})).toMatchObject({
      PUBLIC_API_KEYS: '',
      PUBLIC_ACCESS: false,
      PUBLIC_RATE_LIMIT: { limit: 600, windowSeconds: 60 },
      CORS_ORIGINS: undefined,
    })
  })

  test.each([
    [{ CORS_ORIGINS: '*' }, '*'],
    [{ CORS_ORIGINS: ' https://App.Example , http://localhost:5173/ ' }, ['https://app.example', 'http://localhost:5173']],
    [{ CORS_ORIGINS: 'https://a.example:443' }, ['https://a.example']],
    [{ CORS_ORIGINS: '' }, undefined],
  ])('args: CORS_ORIGINS %o is kept as browsers send Origin: %o', (source, origins) => {
    expect(getServerEnv(source).CORS_ORIGINS).toEqual(origins)
  })

  test('args: PUBLIC_API_KEYS, PUBLIC_ACCESS and PUBLIC_RATE_LIMIT', () => {
    expect(getServerEnv({ PUBLIC_API_KEYS: `web:${KEY}`, PUBLIC_ACCESS: 'true', PUBLIC_RATE_LIMIT: '30/10' })).toMatchObject({
      PUBLIC_API_KEYS: `web:${KEY}`,
      PUBLIC_ACCESS: true,
      PUBLIC_RATE_LIMIT: { limit: 30, windowSeconds: 10 },
    })
  })

  test.each([
    [{ CORS_ORIGINS: 'https://a.example/path' }, /CORS_ORIGINS entry 1 is not an origin/],
    [{ CORS_ORIGINS: 'https://a.example?x=1' }, /CORS_ORIGINS entry 1 is not an origin/],
    [{ CORS_ORIGINS: 'https://ok.example, a.example' }, /CORS_ORIGINS entry 2 is not an origin/],
    [{ CORS_ORIGINS: 'ftp://a.example' }, /CORS_ORIGINS entry 1 is not an origin/],
    [{ CORS_ORIGINS: 'https://user:pw@a.example' }, /CORS_ORIGINS entry 1 is not an origin/],
    [{ CORS_ORIGINS: '*, https://a.example' }, /either \* or a list/],
    [{ PUBLIC_ACCESS: 'yes' }, /PUBLIC_ACCESS/],
    [{ PUBLIC_RATE_LIMIT: '10' }, /PUBLIC_RATE_LIMIT/],
    [{ PUBLIC_API_KEYS: 'short-key' }, /PUBLIC_API_KEYS entry 1: the key is shorter than 16 characters/],
    [{ PUBLIC_API_KEYS: `web:${KEY}/x` }, /PUBLIC_API_KEYS entry 1 \('web'\): the key holds other characters/],
    [{ PUBLIC_API_KEYS: `${KEY},${KEY}` }, /PUBLIC_API_KEYS entry 2: the key is listed twice/],
    [{ PUBLIC_API_KEYS: `public:${KEY}` }, /the name 'public' is the keyless tier's/],
    [
      { API_KEYS: 'alice:alice-secret-0123456789', PUBLIC_API_KEYS: `alice:${KEY}` },
      /PUBLIC_API_KEYS entry 1: its key or name is an API_KEYS key name/,
    ],
    [
      { API_KEYS: `${KEY}:alice-secret-0123456789`, PUBLIC_API_KEYS: KEY },
      /PUBLIC_API_KEYS entry 1: its key or name is an API_KEYS key name/,
    ],
  ])('error: %o is refused, naming the variable, never a key', (source, names) => {
    expect(() => getServerEnv(source)).toThrow(names)
    expect(() => getServerEnv(source)).not.toThrow(new RegExp(KEY))
  })
})

describe('getEdgeEnv', () => {
  test("behavior: remembered while process.env's values stay, read again when one changes", () => {
    const saved = { API_KEYS: process.env.API_KEYS, AUTH_FAILURE_LIMIT: process.env.AUTH_FAILURE_LIMIT }
    try {
      process.env.API_KEYS = 'a:a-secret-0123456789abcdef'
      process.env.AUTH_FAILURE_LIMIT = '7'
      const first = getEdgeEnv()
      expect(getEdgeEnv()).toBe(first)
      process.env.AUTH_FAILURE_LIMIT = '9'
      expect(getEdgeEnv().AUTH_FAILURE_LIMIT).toBe(9)
      process.env.API_KEYS = 'b:b-secret-0123456789abcdef'
      expect(getEdgeEnv().API_KEYS).toBe('b:b-secret-0123456789abcdef')
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k]
        else process.env[k] = v
      }
    }
  })

  test('behavior: in a built server (NODE_ENV=production) the settings are read once; elsewhere on every call', () => {
    const saved = { API_KEYS: process.env.API_KEYS, NODE_ENV: process.env.NODE_ENV }
    try {
      process.env.API_KEYS = 'a:a-secret-0123456789abcdef'
      expect(getEdgeEnv().API_KEYS).toBe('a:a-secret-0123456789abcdef')
      expect(getIdentitySetting().apiKeys).toBe('a:a-secret-0123456789abcdef')
      ;(process.env as Record<string, string>).NODE_ENV = 'production'
      process.env.API_KEYS = 'b:b-secret-0123456789abcdef'
      expect(getEdgeEnv().API_KEYS).toBe('a:a-secret-0123456789abcdef')
      expect(getIdentitySetting().apiKeys).toBe('a:a-secret-0123456789abcdef')
      ;(process.env as Record<string, string>).NODE_ENV = 'test'
      expect(getEdgeEnv().API_KEYS).toBe('b:b-secret-0123456789abcdef')
      expect(getIdentitySetting().apiKeys).toBe('b:b-secret-0123456789abcdef')
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k]
        else process.env[k] = v
      }
    }
  })
})
