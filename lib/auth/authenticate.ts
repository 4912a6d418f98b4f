import { ApiKeysConfigError, loadApiKeys, verifyApiKey } from './api-keys'
import { parseBasicAuth } from './basic-auth'

export type AuthResult =
  | { ok: true; key: string }
  | { ok: false; reason: 'missing' | 'malformed' | 'invalid' | 'unconfigured' | 'misconfigured' }

/** Authenticates an Authorization header against the API_KEYS setting. Edge-safe. */
export async function authenticate(header: string | null, apiKeysSetting: string): Promise<AuthResult> {
  let entries
  try {
    entries = await loadApiKeys(apiKeysSetting)
  } catch (err) {
    if (err instanceof ApiKeysConfigError) return { ok: false, reason: 'misconfigured' }
    throw err
  }
  if (!header) return { ok: false, reason: 'missing' }
  const creds = parseBasicAuth(header)
  if (!creds) return { ok: false, reason: 'malformed' }
  if (entries.length === 0) return { ok: false, reason: 'unconfigured' }
  const key = await verifyApiKey(entries, creds.key, creds.secret)
  return key ? { ok: true, key } : { ok: false, reason: 'invalid' }
}

