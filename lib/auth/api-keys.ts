import { hexToBytes, sha256, timingSafeEqual } from './constant-time'
import { processSingleton } from '../runtime/process-singleton'
import { parseApiKeysText } from './api-keys-setting'

/** One configured credential, kept only as SHA-256 digests. */
export type ApiKeyEntry = { key: string; keyDigest: Uint8Array; secretDigest: Uint8Array }

/**
 * Parses API_KEYS (parseApiKeysText in ./api-keys-setting: `key:secret` with a secret of at least 16
 * characters, or `key:sha256:<64 hex>`) into digests.
 * @throws ApiKeysConfigError naming the entry, never its secret
 */
export async function parseApiKeys(setting: string): Promise<ApiKeyEntry[]> {
  const texts = parseApiKeysText(setting)
  return Promise.all(
    texts.map(async (t) => ({
      key: t.key,
      keyDigest: await sha256(t.key),
      secretDigest: t.digestHex !== undefined ? hexToBytes(t.digestHex) : await sha256(t.secret),
    })),
  )
}

/**
 * Checks a key and secret against every configured entry.
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
