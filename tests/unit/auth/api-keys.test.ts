import { createHash } from 'node:crypto'
import { describe, expect, test, vi } from 'vitest'
import { parseApiKeys, verifyApiKey } from '@/lib/auth/api-keys'
import { ApiKeysConfigError } from '@/lib/auth/api-keys-setting'
import { authenticate } from '@/lib/auth/authenticate'
import { formatBasicAuth } from '@/lib/auth/basic-auth'
import { timingSafeEqual } from '@/lib/auth/constant-time'
import { at } from '../../support/at'

const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex')

describe('parseApiKeys', () => {
  test('default: key:secret entries, secrets may contain ":"', async () => {
    const entries = await parseApiKeys('alice:one-of-alice-16+, bob:t:w:o-bob-sixteen ,,')
    expect(entries.map((e) => e.key)).toEqual(['alice', 'bob'])
    expect(await verifyApiKey(entries, 'bob', 't:w:o-bob-sixteen')).toBe('bob')
  })

  test('args: a secret stored as its SHA-256', async () => {
    const entries = await parseApiKeys(`carol:sha256:${sha('hunter2:x')}`)
    expect(await verifyApiKey(entries, 'carol', 'hunter2:x')).toBe('carol')
    expect(await verifyApiKey(entries, 'carol', `sha256:${sha('hunter2:x')}`)).toBeNull()
  })

  test.each(['nocolon', ':secret', 'key:', `key:sha256:${'a'.repeat(63)}`, `key:sha256:${'a'.repeat(65)}`, `key:sha256:${'g'.repeat(64)}`])(
    'error: malformed entry "%s"',
    async (entry) => {
      await expect(parseApiKeys(`good:good-secret-sixteen,${entry}`)).rejects.toThrow(ApiKeysConfigError)
    },
  )

  test('error: a plain secret shorter than 16 characters is refused, naming the entry and key, not the secret', async () => {
    await expect(parseApiKeys('good:good-secret-sixteen, weak:fifteen-chars-x')).rejects.toThrow(
      "API_KEYS entry 2 ('weak'): the secret is shorter than 16 characters",
    )
    await expect(parseApiKeys('weak:fifteen-chars-x')).rejects.not.toThrow(/fifteen-chars-x/)
    // 16 characters (counted as characters, not bytes) is enough
    expect(await parseApiKeys('ok:sixteen-chars-xy')).toHaveLength(1)
    await expect(parseApiKeys('cyr:ключключключключ')).resolves.toHaveLength(1)
    await expect(parseApiKeys('cyr:ключключключклю')).rejects.toThrow(/shorter than 16/)
  })

  test('error: the message never contains a secret', async () => {
    await expect(parseApiKeys('k:sha256:topsecret')).rejects.toThrow(/entry 1/)
    await expect(parseApiKeys('k:sha256:topsecret')).rejects.not.toThrow(/topsecret/)
  })
})

describe('verifyApiKey', () => {
  test('behavior: wrong secret, unknown (revoked) key, swapped fields are all rejected', async () => {
    const [one, two] = ['secret-one-of-alice', 'secret-two-of-bob']
    const entries = await parseApiKeys(`alice:${one},bob:${two}`)
    expect(await verifyApiKey(entries, 'alice', one)).toBe('alice')
    expect(await verifyApiKey(entries, 'alice', two)).toBeNull()
    expect(await verifyApiKey(entries, 'mallory', one)).toBeNull()
    expect(await verifyApiKey(entries, one, 'alice')).toBeNull()
    expect(await verifyApiKey(entries, 'alice', `${one} `)).toBeNull()
  })
})

describe('timingSafeEqual', () => {
  test('behavior: equal only when every byte is equal, wherever the difference is', () => {
    const a = new Uint8Array(32).fill(7)
    expect(timingSafeEqual(a, a.slice())).toBe(true)
    for (const i of [0, 15, 31]) {
      const b = a.slice()
      b[i] = at(b, i) ^ 1
      expect(timingSafeEqual(a, b)).toBe(false)
    }
    expect(timingSafeEqual(a, a.slice(0, 31))).toBe(false)
  })

  test('behavior: examines every byte (no early exit), so time does not depend on where they differ', () => {
    const reads: number[] = []
    const probe = (len: number) =>
      new Proxy(new Uint8Array(len), {
        get(target, prop) {
          if (typeof prop === 'string' && /^\d+$/.test(prop)) reads.push(Number(prop))
          const v = Reflect.get(target, prop)
          return typeof v === 'function' ? v.bind(target) : v
        },
      })
    const a = probe(32)
    const b = new Uint8Array(32).fill(255) // differs at byte 0
    timingSafeEqual(a, b)
    expect(new Set(reads).size).toBe(32)
  })
})

const ALICE = 'alice:one-of-alice-16chars'

describe('authenticate', () => {
  test.each([
    ['missing', null, ALICE, { ok: false, reason: 'missing' }],
    ['malformed', 'Basic %%%', ALICE, { ok: false, reason: 'malformed' }],
    ['invalid', formatBasicAuth({ key: 'alice', secret: 'nope' }), ALICE, { ok: false, reason: 'invalid' }],
    ['ok', formatBasicAuth({ key: 'alice', secret: 'one-of-alice-16chars' }), ALICE, { ok: true, key: 'alice' }],
    ['unconfigured', formatBasicAuth({ key: 'alice', secret: 'one-of-alice-16chars' }), '', { ok: false, reason: 'unconfigured' }],
    ['misconfigured', formatBasicAuth({ key: 'alice', secret: 'one-of-alice-16chars' }), 'broken', { ok: false, reason: 'misconfigured' }],
    ['weak secret', formatBasicAuth({ key: 'alice', secret: 'one' }), 'alice:one', { ok: false, reason: 'misconfigured' }],
  ])('args: %s', async (_, header, setting, want) => {
    expect(await authenticate(header, setting)).toEqual(want)
  })
})

describe('authenticate: the same credentials arriving together', () => {
  /** SHA-256 digests Web Crypto computes while `work` runs. */
  async function digestsDuring(work: () => Promise<unknown>): Promise<number> {
    const spy = vi.spyOn(crypto.subtle, 'digest')
    try {
      await work()
      return spy.mock.calls.length
    } finally {
      spy.mockRestore()
    }
  }

  test('behavior: ten concurrent requests with one set of credentials check them once; other credentials on their own', async () => {
    const header = formatBasicAuth({ key: 'alice', secret: 'one-of-alice-16chars' })
    // each setting is new to the process: nothing is remembered yet
    const one = await digestsDuring(() => authenticate(header, `${ALICE}, bob:one-of-bob-16charsxx`))
    let results: unknown[] = []
    const ten = await digestsDuring(async () => {
      results = await Promise.all(Array.from({ length: 10 }, () => authenticate(header, `${ALICE}, carol:one-of-carol-16chars`)))
    })
    expect(results).toEqual(Array.from({ length: 10 }, () => ({ ok: true, key: 'alice' })))
    expect(ten).toBe(one)
    // a wrong secret, and alice's secret under another key, sent alongside are checked by themselves, and refused
    const wrong = formatBasicAuth({ key: 'alice', secret: 'not-the-secret-of-alice' })
    const otherKey = formatBasicAuth({ key: 'dave', secret: 'one-of-alice-16chars' })
    const setting = `${ALICE}, dave:one-of-dave-16charsxx`
    const answers = await Promise.all([header, wrong, otherKey, header].map((h) => authenticate(h, setting)))
    expect(answers).toEqual([
      { ok: true, key: 'alice' },
      { ok: false, reason: 'invalid' },
      { ok: false, reason: 'invalid' },
      { ok: true, key: 'alice' },
    ])
  })
})
