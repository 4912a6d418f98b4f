import { createHash } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { credentialNameClash } from '@/lib/auth/credential-names'
import { authenticate, isRemembered } from '@/lib/auth/authenticate'
import { formatBasicAuth } from '@/lib/auth/basic-auth'

const KEY = 'unnamed-public-key-of-the-unit-test'
const defaultName = `public-${createHash('sha256').update(KEY).digest('hex').slice(0, 12)}`

describe('credentialNameClash', () => {
  test.each([
    ['distinct names', 'alice:alice-secret-0123456789', `web:web-key-0123456789abcdef, ${KEY}`, null],
    [
      'an API_KEYS name = a default name',
      `${defaultName}:secret-0123456789abc`,
      KEY,
      /PUBLIC_API_KEYS entry 1 \(its default name\) has the same name as API_KEYS entry 1/,
    ],
    [
      'an explicit name = another default name',
      '',
      `${KEY}, ${defaultName}:other-public-key-0123456789`,
      /PUBLIC_API_KEYS entry 2 has the same name as PUBLIC_API_KEYS entry 1/,
    ],
    [
      'an explicit public name = an API_KEYS name',
      'alice:alice-secret-0123456789',
      'alice:other-public-key-0123456789',
      /PUBLIC_API_KEYS entry 1 has the same name as API_KEYS entry 1/,
    ],
    ["an API key named 'public'", 'public:some-secret-0123456789', '', /API_KEYS entry 1 takes the name 'public'/],
  ])('args: %s', async (_, apiKeys, publicKeys, want) => {
    const clash = await credentialNameClash(apiKeys, publicKeys)
    if (want === null) expect(clash).toBeNull()
    else {
      expect(clash).toMatch(want)
      expect(clash).not.toContain(KEY)
      expect(clash).not.toContain('secret')
    }
  })
})

describe('the verified-credentials cache', () => {
  test('behavior: one entry however the header is spelled; 1,000 spellings do not flush another caller', async () => {
    const setting = 'alice:alice-secret-0123456789,bob:bob-secret-0123456789'
    const alice = formatBasicAuth({ key: 'alice', secret: 'alice-secret-0123456789' })
    const bob = formatBasicAuth({ key: 'bob', secret: 'bob-secret-0123456789' })
    expect(await authenticate(bob, setting)).toEqual({ ok: true, key: 'bob' })
    const token = alice.slice('Basic '.length)
    for (let i = 0; i < 1_000; i++) {
      const spelled = `${i % 2 ? 'basic' : 'BASIC'}${' '.repeat(1 + (i % 7))}${token}`
      expect(await authenticate(spelled, setting)).toEqual({ ok: true, key: 'alice' })
    }
    expect(isRemembered(bob, setting)).toBe(true)
    expect(isRemembered(`bAsIc   ${token}`, setting)).toBe(true)
  })
})
