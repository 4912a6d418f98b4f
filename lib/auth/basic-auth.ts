/** Credentials from an `Authorization: Basic …` header. */
export type BasicCredentials = { key: string; secret: string }

const TOKEN68 = /^[A-Za-z0-9+/]+={0,2}$/
/** Refuses invalid UTF-8; one decode at a time leaves it ready for the next (no `stream` option). */
const UTF8 = new TextDecoder('utf-8', { fatal: true })

/**
 * Parses an Authorization header value per RFC 7617: the scheme is case-insensitive, one or more spaces
 * separate it from the base64 token, the decoded text is UTF-8 and splits at its FIRST colon (a secret may
 * contain ':'; a key may not).
 * @returns the credentials, or null when the header is missing or malformed (bad scheme, bad
 */
export function parseBasicAuth(header: string | null | undefined): BasicCredentials | null {
  if (!header) return null
  const [, scheme, token] = /^([A-Za-z]+) +(\S+)$/.exec(header.trim()) ?? []
  if (scheme?.toLowerCase() !== 'basic' || token === undefined) return null
  if (!TOKEN68.test(token) || token.length % 4 === 1) return null
  let bytes: Uint8Array
  try {
    const binary = atob(token)
    bytes = new Uint8Array(binary.length)
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  } catch {
    return null
  }
  let text: string
  try {
    text = UTF8.decode(bytes)
  } catch {
    return null
  }
  const colon = text.indexOf(':')
  if (colon <= 0) return null
  return { key: text.slice(0, colon), secret: text.slice(colon + 1) }
}

/** Encodes credentials as an Authorization header value (UTF-8, then base64). */
export function formatBasicAuth({ key, secret }: BasicCredentials): string {
  const bytes = new TextEncoder().encode(`${key}:${secret}`)
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return `Basic ${btoa(binary)}`
}
