import { sha256, timingSafeEqual } from './constant-time'
import { processSingleton } from '../runtime/process-singleton'
import { parsePublicKeysText } from './public-keys-setting'

/** One configured public key, kept as its SHA-256 digest, with the name rate limits and logs know it by. */
export type PublicKeyEntry = { name: string; keyDigest: Uint8Array }

const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')

/**
 * The name of an entry written without one: `public-` and the first 12 hex digits of the key's SHA-256,
 * so logs and RATE_LIMITS can tell keys apart without holding them.
 * @example await defaultPublicKeyName('0123456789abcdef0123') // 'public-…' (12 hex digits)
 */
export async function defaultPublicKeyName(key: string): Promise<string> {
  return `public-${toHex(await sha256(key)).slice(0, 12)}`
}

/**
 * Parses PUBLIC_API_KEYS (parsePublicKeysText in ./public-keys-setting: `key` or `name:key`) into digests and names.
 * @throws PublicKeysConfigError naming the entry, never its key
 */
export async function parsePublicKeys(setting: string): Promise<PublicKeyEntry[]> {
  return Promise.all(
    parsePublicKeysText(setting).map(async (t) => ({
      name: t.name ?? (await defaultPublicKeyName(t.key)),
      keyDigest: await sha256(t.key),
    })),
  )
}

/**
 * Checks a presented key against every configured public key, in time that does not depend on which
 * (if any) matches or where it differs.
 * @returns the matching key's name, or null
 */
export async function verifyPublicKey(entries: readonly PublicKeyEntry[], key: string): Promise<string | null> {
  const digest = await sha256(key)
  let found: string | null = null
  for (const entry of entries) if (timingSafeEqual(entry.keyDigest, digest)) found = entry.name
  return found
}

const memo = processSingleton('public-keys', () => ({
  current: undefined as { setting: string; entries: Promise<PublicKeyEntry[]> } | undefined,
}))

/** parsePublicKeys, memoised on the setting's text. */
export function loadPublicKeys(setting: string): Promise<PublicKeyEntry[]> {
  if (memo.current?.setting !== setting) memo.current = { setting, entries: parsePublicKeys(setting) }
  return memo.current.entries
}
