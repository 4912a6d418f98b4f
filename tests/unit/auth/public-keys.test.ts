import { createHash } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { defaultPublicKeyName, parsePublicKeys, verifyPublicKey } from '@/lib/auth/public-keys'
import { parsePublicKeysText, PublicKeysConfigError } from '@/lib/auth/public-keys-setting'

const INFURA = '0123456789abcdef0123456789abcdef'
const BLOCKNATIVE = '3b9c1d7e-5a24-4f0e-9c61-2d8f7a6b5e40'

describe('parsePublicKeysText', () => {
  test('default: `key` and `name:key` entries, comma-separated, spaces around them ignored', () => {
    expect(parsePublicKeysText(` ${INFURA} , bn:${BLOCKNATIVE},`)).toEqual([{ key: INFURA }, { key: BLOCKNATIVE, name: 'bn' }])
    expect(parsePublicKeysText('')).toEqual([])
  })

  test.each([
    ['a key shorter than 16 characters', 'abc', /entry 1: the key is shorter than 16/],
    ['a key with a slash (it could not travel in a path)', `${INFURA}/x`, /entry 1: the key holds other characters/],
    ['a key with a colon after the name', `a:b:${INFURA}`, /entry 1 \('a'\): the key holds other characters/],
    ['an empty name', `:${INFURA}`, /entry 1: the name before ':' is empty/],
    ['the keyless tier name', `public:${INFURA}`, /the name 'public' is the keyless tier's/],
    ['a key listed twice', `a:${INFURA},b:${INFURA}`, /entry 2 \('b'\): the key is listed twice/],
    ['a name listed twice', `a:${INFURA},a:${BLOCKNATIVE}`, /entry 2 \('a'\): the name is listed twice/],
  ])('error: %s', (_, setting, message) => {
    expect(() => parsePublicKeysText(setting)).toThrow(PublicKeysConfigError)
    expect(() => parsePublicKeysText(setting)).toThrow(message)
    // the message never holds a key
    expect(() => parsePublicKeysText(setting)).not.toThrow(new RegExp(`${INFURA}|${BLOCKNATIVE}`))
  })
})

describe('public keys', () => {
  test('default: a key without a name is known as public- and the first 12 hex digits of its SHA-256', async () => {
    const hex = createHash('sha256').update(INFURA).digest('hex')
    expect(await defaultPublicKeyName(INFURA)).toBe(`public-${hex.slice(0, 12)}`)
    const entries = await parsePublicKeys(`${INFURA}, bn:${BLOCKNATIVE}`)
    expect(entries.map((e) => e.name)).toEqual([`public-${hex.slice(0, 12)}`, 'bn'])
  })

  test('behavior: only a configured key verifies, by its exact value', async () => {
    const entries = await parsePublicKeys(`${INFURA}, bn:${BLOCKNATIVE}`)
    expect(await verifyPublicKey(entries, BLOCKNATIVE)).toBe('bn')
    for (const wrong of [BLOCKNATIVE.toUpperCase(), BLOCKNATIVE.slice(1), `${BLOCKNATIVE} `, 'bn', ''])
      expect(await verifyPublicKey(entries, wrong)).toBeNull()
    expect(await verifyPublicKey([], INFURA)).toBeNull()
  })
})
