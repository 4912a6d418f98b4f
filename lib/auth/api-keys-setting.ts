import { z } from 'zod'

/** The API_KEYS setting's syntax. */

/** API_KEYS is malformed; the message names the entry (its number and key name), never its secret. */
export class ApiKeysConfigError extends Error {
  override name = 'ApiKeysConfigError'
}

/** The shortest plain API key secret accepted: 16 characters (a sha256: entry must hold 64 hex digits). */
export const MIN_SECRET_LENGTH = 16

/** One API_KEYS entry as written: the key name and either the plain secret or the secret's SHA-256 (hex). */
export type ApiKeyText = { key: string } & ({ secret: string; digestHex?: undefined } | { digestHex: string; secret?: undefined })

/**
 * Parses API_KEYS: comma-separated entries `key:secret` (the secret may contain ':' but not ','; at least
 * MIN_SECRET_LENGTH characters) or `key:sha256:<64 hex>` (the SHA-256 of the UTF-8 secret).
 * @throws ApiKeysConfigError naming the entry (its number and key name), never its secret
 */
export function parseApiKeysText(setting: string): ApiKeyText[] {
  const parts = setting
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0)
  return parts.map((part, index) => {
    const colon = part.indexOf(':')
    const key = colon > 0 ? part.slice(0, colon) : ''
    const rest = colon > 0 ? part.slice(colon + 1) : ''
    if (!key || !rest) throw new ApiKeysConfigError(`API_KEYS entry ${index + 1} is not key:secret`)
    if (rest.startsWith('sha256:')) {
      const digestHex = /^sha256:([0-9a-fA-F]{64})$/.exec(rest)?.[1]
      if (digestHex === undefined)
        throw new ApiKeysConfigError(`API_KEYS entry ${index + 1} ('${key}'): the sha256: digest is not 64 hex digits`)
      return { key, digestHex }
    }
    if ([...rest].length < MIN_SECRET_LENGTH)
      throw new ApiKeysConfigError(`API_KEYS entry ${index + 1} ('${key}'): the secret is shorter than ${MIN_SECRET_LENGTH} characters`)
    return { key, secret: rest }
  })
}

/** API_KEYS validated by parseApiKeysText; its message (safe: no secret) becomes the issue's. */
export const ApiKeysSchema = z
  .string()
  .default('')
  .superRefine((s, ctx) => {
    try {
      parseApiKeysText(s)
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message, params: { safe: true } })
    }
  })
