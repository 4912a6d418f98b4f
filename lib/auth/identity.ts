import { loadApiKeys } from './api-keys'
import { timingSafeEqual } from './constant-time'
import { loadPublicKeys } from './public-keys'
import { KEYLESS_NAME } from './public-keys-setting'
import { joinInFlight } from '../runtime/in-flight'
import { processSingleton } from '../runtime/process-singleton'

/** The verified caller, as the middleware forwards it to the handlers: `<caller>.<HMAC>`. */
export const IDENTITY_HEADER = 'x-gas-api-identity'

/**
 * What decides which callers exist: API_KEYS (key:secret), PUBLIC_API_KEYS (keys without a secret) and
 * PUBLIC_ACCESS (the keyless tier). A string is API_KEYS alone.
 */
export type IdentitySetting = string | { apiKeys: string; publicApiKeys?: string; publicAccess?: boolean }

/**
 * A caller of the keyless tier (PUBLIC_ACCESS): `public:<client address>`. No key name holds ':' (API_KEYS
 * and PUBLIC_API_KEYS split at the first), so it never names a key.
 */
export const keylessIdentity = (address: string) => `${KEYLESS_NAME}:${address}`

/** Whether an identity is the keyless tier's (rated per address under PUBLIC_RATE_LIMIT). */
export const isKeyless = (identity: string) => identity.startsWith(`${KEYLESS_NAME}:`)

/** How logs name a caller: its key's name, or `public` for the keyless tier (never its address). */
export const logName = (identity: string) => (isKeyless(identity) ? KEYLESS_NAME : identity)

const normalise = (s: IdentitySetting) =>
  typeof s === 'string'
    ? { apiKeys: s, publicApiKeys: '', publicAccess: false }
    : { apiKeys: s.apiKeys, publicApiKeys: s.publicApiKeys ?? '', publicAccess: s.publicAccess ?? false }

/** The setting as one string: the HMAC's material and the memo's key. */
const materialOf = (s: ReturnType<typeof normalise>) => `${s.apiKeys}\0${s.publicApiKeys}\0${s.publicAccess}`

const encoder = new TextEncoder()
const keys = processSingleton('identity-keys', () => new Map<string, Promise<CryptoKey>>())
/** Most identities remembered per setting (one per caller in use): beyond it the memory starts over. */
const MAX_REMEMBERED = 1_000
/**
 * Signed and verified identities under the current setting (a header is the same string every time; a forged one is
 * never kept), and those being signed or verified now (one caller's requests arriving together share the work).
 */
const memo = processSingleton('identity-memo', () => ({
  setting: '',
  signed: new Map<string, string>(),
  verified: new Map<string, string>(),
  signing: new Map<string, Promise<string>>(),
  verifying: new Map<string, Promise<string | null>>(),
}))

/** The memo of this material (emptied first when the material changed); read its maps before any await. */
function memoFor(material: string) {
  if (memo.setting !== material)
    Object.assign(memo, { setting: material, signed: new Map(), verified: new Map(), signing: new Map(), verifying: new Map() })
  return memo
}

function remember(map: Map<string, string>, key: string, value: string): void {
  if (map.size >= MAX_REMEMBERED) map.clear()
  map.set(key, value)
}

function hmacKey(material: string): Promise<CryptoKey> {
  let key = keys.get(material)
  if (!key) {
    if (keys.size > 8) keys.clear()
    key = crypto.subtle
      .digest('SHA-256', encoder.encode(`gas-api identity v2\0${material}`))
      .then((digest) => crypto.subtle.importKey('raw', digest, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']))
    keys.set(material, key)
  }
  return key
}

async function mac(identity: string, material: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(material), encoder.encode(identity)))
}

const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')

/** The identity header's value for a verified caller (a key name, or keylessIdentity(address)). */
export async function signIdentity(identity: string, setting: IdentitySetting): Promise<string> {
  const material = materialOf(normalise(setting))
  const m = memoFor(material)
  const known = m.signed.get(identity)
  if (known !== undefined) return known
  return joinInFlight(m.signing, identity, async () => {
    const signed = `${encodeURIComponent(identity)}.${toHex(await mac(identity, material))}`
    if (!isKeyless(identity)) remember(memoFor(material).signed, identity, signed)
    return signed
  })
}

/** Whether the setting knows this caller: a name in API_KEYS or PUBLIC_API_KEYS, or the keyless tier when it is on. */
async function exists(identity: string, s: ReturnType<typeof normalise>): Promise<boolean> {
  if (isKeyless(identity)) return s.publicAccess
  const [apiKeys, publicKeys] = await Promise.all([loadApiKeys(s.apiKeys).catch(() => []), loadPublicKeys(s.publicApiKeys).catch(() => [])])
  return apiKeys.some((e) => e.key === identity) || publicKeys.some((e) => e.name === identity)
}

/**
 * The caller an identity header vouches for (a key name, or keylessIdentity(address)), or null when it is
 * absent, malformed, forged, or names no caller of the setting.
 */
export async function verifyIdentity(header: string | null, setting: IdentitySetting): Promise<string | null> {
  const s = normalise(setting)
  if (!header || (s.apiKeys.trim() === '' && s.publicApiKeys.trim() === '' && !s.publicAccess)) return null
  const material = materialOf(s)
  const m = memoFor(material)
  const known = m.verified.get(header)
  if (known !== undefined) return known
  return joinInFlight(m.verifying, header, () => verifyFresh(header, s, material))
}

/** verifyIdentity for a header not remembered: its HMAC checked, its caller looked up. */
async function verifyFresh(header: string, s: ReturnType<typeof normalise>, material: string): Promise<string | null> {
  const dot = header.lastIndexOf('.')
  if (dot <= 0) return null
  let identity: string
  try {
    identity = decodeURIComponent(header.slice(0, dot))
  } catch {
    return null
  }
  const given = header.slice(dot + 1)
  if (!/^[0-9a-f]{64}$/.test(given)) return null
  const expected = toHex(await mac(identity, material))
  if (!timingSafeEqual(encoder.encode(given), encoder.encode(expected))) return null
  // only a configured caller: even a holder of the signing material cannot mint names (and quotas)
  if (!(await exists(identity, s))) return null
  // keyless identities are one per address: not remembered, so addresses cannot flush the keys' entries
  if (!isKeyless(identity)) remember(memoFor(material).verified, header, identity)
  return identity
}
