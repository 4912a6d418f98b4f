import { loadApiKeys } from './api-keys'
import { timingSafeEqual } from './constant-time'
import { processSingleton } from '../runtime/process-singleton'

/** The verified caller, as the middleware forwards it to the handlers: `<key name>.<HMAC>`. */
export const IDENTITY_HEADER = 'x-gas-api-identity'

const encoder = new TextEncoder()
const keys = processSingleton('identity-keys', () => new Map<string, Promise<CryptoKey>>())
/** Most identities remembered per API_KEYS setting (one per key name in use): beyond it the memory starts over. */
const MAX_REMEMBERED = 1_000
/**
 * Signed and verified identities under the current API_KEYS setting: a header is the same string
 * every time for a key name, so each is signed once and each exact header verified once (a forged
 * one is never remembered and pays the constant-time check every time).
 */
const memo = processSingleton('identity-memo', () => ({
  setting: '',
  signed: new Map<string, string>(),
  verified: new Map<string, string>(),
}))

function memoFor(apiKeysSetting: string) {
  if (memo.setting !== apiKeysSetting) Object.assign(memo, { setting: apiKeysSetting, signed: new Map(), verified: new Map() })
  return memo
}

function remember(map: Map<string, string>, key: string, value: string): void {
  if (map.size >= MAX_REMEMBERED) map.clear()
  map.set(key, value)
}

function hmacKey(apiKeysSetting: string): Promise<CryptoKey> {
  let key = keys.get(apiKeysSetting)
  if (!key) {
    if (keys.size > 8) keys.clear()
    key = crypto.subtle
      .digest('SHA-256', encoder.encode(`gas-api identity v1\0${apiKeysSetting}`))
      .then((material) => crypto.subtle.importKey('raw', material, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']))
    keys.set(apiKeysSetting, key)
  }
  return key
}

async function mac(keyName: string, apiKeysSetting: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(apiKeysSetting), encoder.encode(keyName)))
}

const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')

/** The identity header's value for a verified key name. */
export async function signIdentity(keyName: string, apiKeysSetting: string): Promise<string> {
  const known = memoFor(apiKeysSetting).signed.get(keyName)
  if (known !== undefined) return known
  const signed = `${encodeURIComponent(keyName)}.${toHex(await mac(keyName, apiKeysSetting))}`
  remember(memoFor(apiKeysSetting).signed, keyName, signed)
  return signed
}

/** The key name an identity header vouches for, or null when it is absent, malformed or forged. */
export async function verifyIdentity(header: string | null, apiKeysSetting: string): Promise<string | null> {
  if (!header || apiKeysSetting.trim() === '') return null
  const known = memoFor(apiKeysSetting).verified.get(header)
  if (known !== undefined) return known
  const dot = header.lastIndexOf('.')
  if (dot <= 0) return null
  let keyName: string
  try {
    keyName = decodeURIComponent(header.slice(0, dot))
  } catch {
    return null
  }
  const given = header.slice(dot + 1)
  if (!/^[0-9a-f]{64}$/.test(given)) return null
  const expected = toHex(await mac(keyName, apiKeysSetting))
  if (!timingSafeEqual(encoder.encode(given), encoder.encode(expected))) return null
  // only a configured key: even a holder of the signing material cannot mint names (and quotas)
  const entries = await loadApiKeys(apiKeysSetting).catch(() => [])
  if (!entries.some((e) => e.key === keyName)) return null
  remember(memoFor(apiKeysSetting).verified, header, keyName)
  return keyName
}
