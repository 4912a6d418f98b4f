import { loadApiKeys } from './api-keys'
import { timingSafeEqual } from './constant-time'
import { processSingleton } from '../runtime/process-singleton'

/** The verified caller, as the middleware forwards it to the handlers: `<key name>.<HMAC>`. */
export const IDENTITY_HEADER = 'x-gas-api-identity'

const encoder = new TextEncoder()
const keys = processSingleton('identity-keys', () => new Map<string, Promise<CryptoKey>>())

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
  return `${encodeURIComponent(keyName)}.${toHex(await mac(keyName, apiKeysSetting))}`
}

/** The key name an identity header vouches for, or null when it is absent, malformed or forged. */
export async function verifyIdentity(header: string | null, apiKeysSetting: string): Promise<string | null> {
  if (!header || apiKeysSetting.trim() === '') return null
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
  return entries.some((e) => e.key === keyName) ? keyName : null
}
