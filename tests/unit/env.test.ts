import { describe, expect, test } from 'vitest'
import { ConfigError, getDemoEnv, getServerEnv } from '@/lib/env'

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

describe('getDemoEnv', () => {
  test('default: port 3000, no fixed secret', () => {
    expect(getDemoEnv({})).toEqual({ PORT: 3000 })
  })
  test('args: PORT and DEMO_API_SECRET', () => {
    expect(getDemoEnv({ PORT: '8080', DEMO_API_SECRET: 's' })).toEqual({ PORT: 8080, DEMO_API_SECRET: 's' })
  })
  test('error: a bad PORT names the variable', () => {
    expect(() => getDemoEnv({ PORT: 'abc' })).toThrow(/PORT/)
  })
})
