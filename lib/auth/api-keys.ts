import { hexToBytes, sha256, timingSafeEqual } from './constant-time'
import { processSingleton } from '../core/process-singleton'

/** One configured credential, kept only as SHA-256 digests. */
export type ApiKeyEntry = { key: string; keyDigest: Uint8Array; secretDigest: Uint8Array }

/** API_KEYS is malformed; the message never includes a secret. */
export class ApiKeysConfigError extends Error {
  override name = 'ApiKeysConfigError'
}

const HASHED = /^sha256:([0-9a-fA-F]{64})$/

/**
 * Parses API_KEYS: comma-separated entries `key:secret` (the secret may contain ':' but not ',')
 * or `key:sha256:<64 hex>` (the SHA-256 of the UTF-8 secret). Blank entries are ignored.
 */
export async function parseApiKeys(setting: string): Promise<ApiKeyEntry[]> {
  const entries: ApiKeyEntry[] = []
  const parts = setting
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0)
  for (const [index, part] of parts.entries()) {
    const colon = part.indexOf(':')
    const key = colon > 0 ? part.slice(0, colon) : ''
    const rest = colon > 0 ? part.slice(colon + 1) : ''
    if (!key || !rest) throw new ApiKeysConfigError(`API_KEYS entry ${index + 1} is not key:secret`)
    const digestHex = HASHED.exec(rest)?.[1]
    if (digestHex === undefined && rest.startsWith('sha256:')) {
      throw new ApiKeysConfigError(`API_KEYS entry ${index + 1} ('${key}') has a malformed sha256 digest`)
    }
    entries.push({
      key,
      keyDigest: await sha256(key),
      secretDigest: digestHex !== undefined ? hexToBytes(digestHex) : await sha256(rest),
    })
  }
  return entries
}

/**
 * Checks a key and secret against every configured entry. Both sides are compared as SHA-256
 * digests, with no early exit, so timing reveals neither where a secret differs nor which keys exist.
 * @returns the matching key, or null
 */
export async function verifyApiKey(entries: readonly ApiKeyEntry[], key: string, secret: string): Promise<string | null> {
  const [keyDigest, secretDigest] = await Promise.all([sha256(key), sha256(secret)])
  let found: string | null = null
  for (const entry of entries) {
    const keyOk = timingSafeEqual(entry.keyDigest, keyDigest)
    const secretOk = timingSafeEqual(entry.secretDigest, secretDigest)
    if (keyOk && secretOk) found = entry.key
  }
  return found
}

const memo = processSingleton('api-keys', () => ({
  current: undefined as { setting: string; entries: Promise<ApiKeyEntry[]> } | undefined,
}))

/** parseApiKeys, memoised on the setting's text. */
export function loadApiKeys(setting: string): Promise<ApiKeyEntry[]> {
  if (memo.current?.setting !== setting) memo.current = { setting, entries: parseApiKeys(setting) }
  return memo.current.entries
}
