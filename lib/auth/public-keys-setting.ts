import { MIN_SECRET_LENGTH } from './api-keys-setting'

/** The PUBLIC_API_KEYS setting's syntax: single-string keys that need no secret (Blocknative's and Infura's style). */

/** PUBLIC_API_KEYS is malformed; the message names the entry (its number, and its name when written), never its key. */
export class PublicKeysConfigError extends Error {
  override name = 'PublicKeysConfigError'
}

/** A public key's characters: URL-unreserved (RFC 3986), so it travels in a header and a path segment unescaped. */
export const PUBLIC_KEY_PATTERN = /^[A-Za-z0-9._~-]+$/

/** The name the keyless tier logs as; no public key may take it. */
export const KEYLESS_NAME = 'public'

/** One PUBLIC_API_KEYS entry as written: the key, and its name when the entry gives one. */
export type PublicKeyText = { key: string; name?: string }

/**
 * Parses PUBLIC_API_KEYS: comma-separated entries `key` or `name:key`. A key is URL-unreserved characters
 * (PUBLIC_KEY_PATTERN), at least 16 of them; a name has no ':', ',' or space and is not `public`. Keys and
 * names are unique.
 * @throws PublicKeysConfigError naming the entry, never its key
 */
export function parsePublicKeysText(setting: string): PublicKeyText[] {
  const parts = setting
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0)
  const keys = new Set<string>()
  const names = new Set<string>()
  return parts.map((part, index) => {
    const colon = part.indexOf(':')
    const name = colon >= 0 ? part.slice(0, colon) : undefined
    const key = colon >= 0 ? part.slice(colon + 1) : part
    const where = `PUBLIC_API_KEYS entry ${index + 1}${name ? ` ('${name}')` : ''}`
    if (name !== undefined && (name === '' || /\s/.test(name)))
      throw new PublicKeysConfigError(`${where}: the name before ':' is empty or has a space`)
    if (name === KEYLESS_NAME) throw new PublicKeysConfigError(`${where}: the name '${KEYLESS_NAME}' is the keyless tier's`)
    if (!PUBLIC_KEY_PATTERN.test(key)) throw new PublicKeysConfigError(`${where}: the key holds other characters than A-Z a-z 0-9 . _ ~ -`)
    if (key.length < MIN_SECRET_LENGTH) throw new PublicKeysConfigError(`${where}: the key is shorter than ${MIN_SECRET_LENGTH} characters`)
    if (keys.has(key)) throw new PublicKeysConfigError(`${where}: the key is listed twice`)
    if (name !== undefined && names.has(name)) throw new PublicKeysConfigError(`${where}: the name is listed twice`)
    keys.add(key)
    if (name !== undefined) names.add(name)
    return name === undefined ? { key } : { key, name }
  })
}
