import { parseApiKeysText } from './api-keys-setting'
import { defaultPublicKeyName } from './public-keys'
import { KEYLESS_NAME, parsePublicKeysText } from './public-keys-setting'
import { processSingleton } from '../runtime/process-singleton'

/**
 * One name per credential: a name is what a rate-limit bucket, a set of stream slots and a log line count by, so two
 * credentials under one name would share all three. The names: each API_KEYS entry's key name, each PUBLIC_API_KEYS
 * entry's explicit name or its default `public-<12 hex>` (defaultPublicKeyName). `public` and `public:*` are the
 * keyless tier's.
 * @returns null, or what clashes, naming the settings and their entries' numbers, never a key (edge-safe)
 */
export async function credentialNameClash(apiKeys: string, publicApiKeys: string): Promise<string | null> {
  let named: { name: string; where: string }[]
  try {
    const api = parseApiKeysText(apiKeys).map((e, i) => ({ name: e.key, where: `API_KEYS entry ${i + 1}` }))
    const pub = await Promise.all(
      parsePublicKeysText(publicApiKeys).map(async (e, i) => ({
        name: e.name ?? (await defaultPublicKeyName(e.key)),
        where: `PUBLIC_API_KEYS entry ${i + 1}${e.name === undefined ? ' (its default name)' : ''}`,
      })),
    )
    named = [...api, ...pub]
  } catch {
    return null // malformed settings are reported by their own checks
  }
  const seen = new Map<string, string>()
  for (const { name, where } of named) {
    if (name === KEYLESS_NAME || name.startsWith(`${KEYLESS_NAME}:`)) return `${where} takes the name '${KEYLESS_NAME}', the keyless tier's`
    const first = seen.get(name)
    if (first !== undefined)
      return `${where} has the same name as ${first}: two credentials would share one rate limit, stream slots and log name`
    seen.set(name, where)
  }
  return null
}

const memo = processSingleton('credential-names', () => ({ key: '', result: Promise.resolve<string | null>(null) }))

/** credentialNameClash, memoised on the two settings' text. */
export function checkCredentialNames(apiKeys: string, publicApiKeys: string): Promise<string | null> {
  const key = `${apiKeys}\0${publicApiKeys}`
  if (memo.key !== key) Object.assign(memo, { key, result: credentialNameClash(apiKeys, publicApiKeys) })
  return memo.result
}
