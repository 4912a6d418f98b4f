import { sha256, timingSafeEqual } from './constant-time'

/**
 * Whether an Authorization header is `Bearer <token>` with exactly the configured token.
 * @returns 'ok', 'missing' (no Bearer credentials) or 'invalid'
 */
export async function verifyBearer(header: string | null, token: string): Promise<'ok' | 'missing' | 'invalid'> {
  const given = header === null ? undefined : /^Bearer +(\S+)$/i.exec(header.trim())?.[1]
  if (given === undefined) return header ? 'invalid' : 'missing'
  const [a, b] = await Promise.all([sha256(given), sha256(token)])
  return timingSafeEqual(a, b) ? 'ok' : 'invalid'
}
