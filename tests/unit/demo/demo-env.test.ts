import { describe, expect, test } from 'vitest'
import { getDemoEnv } from '@/scripts/demo/demo-env'

describe('getDemoEnv', () => {
  test('default: port 3000, no fixed secret', () => {
    expect(getDemoEnv({})).toEqual({ PORT: 3000 })
  })
  test('args: PORT and DEMO_API_SECRET', () => {
    expect(getDemoEnv({ PORT: '8080', DEMO_API_SECRET: 's'.repeat(16) })).toEqual({ PORT: 8080, DEMO_API_SECRET: 's'.repeat(16) })
    expect(() => getDemoEnv({ DEMO_API_SECRET: 'demo-secret' })).toThrow(/DEMO_API_SECRET/)
  })
  test('error: a bad PORT names the variable', () => {
    expect(() => getDemoEnv({ PORT: 'abc' })).toThrow(/PORT/)
  })
})
