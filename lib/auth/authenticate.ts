import { loadApiKeys, verifyApiKey } from './api-keys'
import { ApiKeysConfigError } from './api-keys-setting'
import { parseBasicAuth, type BasicCredentials } from './basic-auth'
import { BoundedMap } from '../runtime/bounded-map'
import { joinInFlight } from '../runtime/in-flight'
import { processSingleton } from '../runtime/process-singleton'

export type AuthResult =
  { ok: true; key: string } | { ok: false; reason: 'missing' | 'malformed' | 'invalid' | 'unconfigured' | 'misconfigured' }

/**
 * Credentials that verified under this API_KEYS setting, by their canonical form (the decoded key and secret: one
 * entry however the header is spelled, so a caller cannot flush the others by writing one header many ways).
 * Least recently used out first.
 */
const MAX_REMEMBERED = 1_000
const state = processSingleton('authenticated-credentials', () => ({
  remembered: { setting: '', keys: new BoundedMap<string, string>(MAX_REMEMBERED), checking: new Map<string, Promise<string | null>>() },
}))

/**
 * One string per credentials, whatever the scheme's case, the spaces or the base64 spelling; two credentials never
 * share one (the key holds no ':', parseBasicAuth splits at the first).
 */
const canonical = (c: BasicCredentials) => `${c.key}:${c.secret}`

function rememberedFor(setting: string) {
  if (state.remembered.setting !== setting) state.remembered = { setting, keys: new BoundedMap(MAX_REMEMBERED), checking: new Map() }
  return state.remembered
}

/** Authenticates an Authorization header against the API_KEYS setting. Edge-safe. */
export async function authenticate(header: string | null, apiKeysSetting: string): Promise<AuthResult> {
  const { keys: remembered, checking } = rememberedFor(apiKeysSetting)
  const creds = parseBasicAuth(header)
  const known = creds ? remembered.get(canonical(creds)) : undefined
  if (known !== undefined) return { ok: true, key: known }
  let entries
  try {
    entries = await loadApiKeys(apiKeysSetting)
  } catch (err) {
    if (err instanceof ApiKeysConfigError) return { ok: false, reason: 'misconfigured' }
    throw err
  }
  if (!header) return { ok: false, reason: 'missing' }
  if (!creds) return { ok: false, reason: 'malformed' }
  if (entries.length === 0) return { ok: false, reason: 'unconfigured' }
  // the same credentials arriving together (a client opening its streams) are checked once
  const key = await joinInFlight(checking, canonical(creds), () => verifyApiKey(entries, creds.key, creds.secret))
  if (!key) return { ok: false, reason: 'invalid' }
  remembered.set(canonical(creds), key)
  return { ok: true, key }
}

/**
 * Whether these credentials (in any spelling of the header) verified before under this API_KEYS setting: such a
 * caller passes even while its address is throttled (a guesser cannot produce them without the secret).
 */
export function isRemembered(header: string | null, apiKeysSetting: string): boolean {
  const creds = parseBasicAuth(header)
  return creds !== null && state.remembered.setting === apiKeysSetting && state.remembered.keys.has(canonical(creds))
}
