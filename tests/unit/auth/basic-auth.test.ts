import { describe, expect, test } from 'vitest'
import { formatBasicAuth, parseBasicAuth } from '@/lib/auth/basic-auth'

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64')

describe('parseBasicAuth', () => {
  test('default: key and secret', () => {
    expect(parseBasicAuth(`Basic ${b64('key:secret')}`)).toEqual({ key: 'key', secret: 'secret' })
  })

  test.each([
    ['a colon in the secret', `Basic ${b64('key:se:cr:et')}`, { key: 'key', secret: 'se:cr:et' }],
    ['an empty secret', `Basic ${b64('key:')}`, { key: 'key', secret: '' }],
    ['unicode', `Basic ${b64('ключ:пароль🔑')}`, { key: 'ключ', secret: 'пароль🔑' }],
    ['lowercase scheme (schemes are case-insensitive)', `basic ${b64('k:s')}`, { key: 'k', secret: 's' }],
    ['several spaces after the scheme', `Basic    ${b64('k:s')}`, { key: 'k', secret: 's' }],
    ['base64 without padding', `Basic ${b64('k:s1').replace(/=+$/, '')}`, { key: 'k', secret: 's1' }],
  ])('args: %s', (_, header, want) => {
    expect(parseBasicAuth(header)).toEqual(want)
  })

  test.each([
    ['missing', undefined],
    ['empty', ''],
    ['another scheme', `Bearer ${b64('k:s')}`],
    ['no token', 'Basic'],
    ['invalid base64 characters', 'Basic a$b%c'],
    ['impossible base64 length', 'Basic abcde'],
    ['two tokens', `Basic ${b64('k:s')} ${b64('k:s')}`],
    ['no colon', `Basic ${b64('keyonly')}`],
    ['an empty key', `Basic ${b64(':secret')}`],
    ['bytes that are not UTF-8', `Basic ${Buffer.from([0x6b, 0x3a, 0xff, 0xfe]).toString('base64')}`],
    ['an 8 KB header of junk', `Basic ${'A'.repeat(8192)}`],
  ])('error: %s → null', (_, header) => {
    expect(parseBasicAuth(header as string | undefined)).toBeNull()
  })

  test('behavior: a header that is not UTF-8 leaves nothing behind: the next one, cut mid-character the same way, is read whole', () => {
    // 0xe2 0x82 opens a three-byte character that never ends
    expect(parseBasicAuth(`Basic ${Buffer.from([0x6b, 0x3a, 0xe2, 0x82]).toString('base64')}`)).toBeNull()
    expect(parseBasicAuth(`Basic ${b64('k:€uro')}`)).toEqual({ key: 'k', secret: '€uro' })
  })

  test('behavior: formatBasicAuth round-trips, unicode and colons included', () => {
    const creds = { key: 'kéy', secret: 'a:b:ç' }
    expect(parseBasicAuth(formatBasicAuth(creds))).toEqual(creds)
  })
})
