import { loadApiKeys, verifyApiKey } from './api-keys'
import { ApiKeysConfigError } from './api-keys-setting'
import { parseBasicAuth } from './basic-auth'
import { processSingleton } from '../runtime/process-singleton'

export type AuthResult =
  { ok: true; key: string } | { ok: false; reason: 'missing' | 'malformed' | 'invalid' | 'unconfigured' | 'misconfigured' }

/** Headers that verified, by exact value, for this API_KEYS setting. */
const MAX_REMEMBERED = 1_000
const state = processSingleton('authenticated-headers', () => ({ remembered: { setting: '', keys: new Map<string, string>() } }))

/** Authenticates an Authorization header against the API_KEYS setting. Edge-safe. */
export async function authenticate(header: string | null, apiKeysSetting: string): Promise<AuthResult> {
  if (state.remembered.setting !== apiKeysSetting) state.remembered = { setting: apiKeysSetting, keys: new Map() }
  const { remembered } = state
  const known = header ? remembered.keys.get(header) : undefined
  if (known !== undefined) return { ok: true, key: known }
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
  if (!key) return { ok: false, reason: 'invalid' }
  if (remembered.keys.size >= MAX_REMEMBERED) remembered.keys.clear()
  remembered.keys.set(header, key)
  return { ok: true, key }
}

/**
 * Whether this exact Authorization header verified before under this API_KEYS setting: such a
 * caller passes even while its address is throttled (a guesser cannot produce one without the secret).
 */
export function isRemembered(header: string | null, apiKeysSetting: string): boolean {
  return header !== null && state.remembered.setting === apiKeysSetting && state.remembered.keys.has(header)
}
