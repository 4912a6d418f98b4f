import { authenticate, isRemembered } from './authenticate'
import { checkCredentialNames } from './credential-names'
import { sha256, timingSafeEqual } from './constant-time'
import { addressBlocked, instanceBlocked, recordAuthFailure } from './failure-throttle'
import { keylessIdentity } from './identity'
import { loadPublicKeys, verifyPublicKey } from './public-keys'
import { PUBLIC_KEY_PATTERN } from './public-keys-setting'
import { BoundedMap } from '../runtime/bounded-map'
import { processSingleton } from '../runtime/process-singleton'

/** The settings the gate reads (the middleware's EdgeEnv has them all). */
export type AccessSettings = {
  API_KEYS: string
  PUBLIC_API_KEYS: string
  PUBLIC_ACCESS: boolean
  AUTH_FAILURE_LIMIT: number
}

/**
 * What the gate decides: pass, as `identity` (a key name, or keylessIdentity(address)), to `path` (the request's
 * own, or the `/v3/<key>` prefix taken off); or refuse with a status and a message that never holds a key.
 */
export type AccessVerdict =
  | { pass: true; identity: string; path: string }
  | { pass: false; status: 401 | 404 | 429 | 503; message: string; retryAfterSeconds?: number; misconfigured?: true }

/** The API's read paths: served keyless under PUBLIC_ACCESS, and the only ones a `/v3/<key>/` path leads to. */
export const isReadApiPath = (path: string) =>
  /^\/networks\/[^/]+\/./.test(path) || path.startsWith('/v1/') || path.startsWith('/gasprices/') || path === '/chains'

/** What the keyless tier opens: the read paths and the chain pages (`/`, `/networks/<chainId>`). */
export const isKeylessPath = (path: string) => path === '/' || /^\/networks\/[^/]+\/?$/.test(path) || isReadApiPath(path)

/** Infura's form `/v3/<key>/<rest>`: the key, and the path it stands for (`''` when nothing follows). */
export function splitKeyPath(path: string): { key: string; rest: string } | null {
  const match = /^\/v3\/([^/]*)(\/.*)?$/.exec(path)
  return match ? { key: match[1] ?? '', rest: match[2] ?? '' } : null
}

const MESSAGES = {
  missing: 'Authentication required: send HTTP Basic credentials (API key as user name, API key secret as password).',
  missingPublic:
    'Authentication required: send HTTP Basic credentials (API key as user name, API key secret as password), or a public API key as Authorization: <key> or X-Api-Key: <key>.',
  malformed: 'The Authorization header is not valid HTTP Basic credentials.',
  malformedPublic: 'The Authorization header is neither HTTP Basic credentials nor an API key.',
  invalid: 'The API key or API key secret is not valid.',
  unconfigured: 'This server has no API keys configured, so no credentials are valid.',
  notFound: 'Not found: /v3/<API key>/ leads to the read endpoints only (/networks/…, /v1/…, /gasprices/…, /chains).',
  readOnly: 'A public API key opens the read endpoints and the chain pages only: send HTTP Basic credentials here.',
  misconfigured: 'API_KEYS or PUBLIC_API_KEYS is malformed',
  noAddress: "The service cannot tell this request's client address, which the keyless tier counts by: send credentials, or retry.",
} as const

/** Public keys that verified, by exact value, for this PUBLIC_API_KEYS setting (a guesser cannot present one). */
const MAX_REMEMBERED = 1_000
const remembered = processSingleton('verified-public-keys', () => ({ setting: '', names: new BoundedMap<string, string>(MAX_REMEMBERED) }))
function rememberedFor(setting: string) {
  if (remembered.setting !== setting) Object.assign(remembered, { setting, names: new BoundedMap(MAX_REMEMBERED) })
  return remembered.names
}

/** Whether two presented strings are equal, compared through their digests in constant time (never `===` on a key). */
async function same(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([sha256(a), sha256(b)])
  return timingSafeEqual(x, y)
}

/** The credentials a request presents, by where they are. */
function presented(path: string, headers: Headers) {
  const v3 = splitKeyPath(path)
  const authorization = headers.get('authorization')?.trim() || undefined
  const basic = authorization !== undefined && /^basic(\s|$)/i.test(authorization) ? authorization : undefined
  return {
    v3,
    basic,
    raw: basic === undefined ? authorization : undefined,
    headerKey: headers.get('x-api-key')?.trim() || undefined,
  }
}

/**
 * The gate's decision for one request (edge-safe); every credential is checked in constant time:
 * - HTTP Basic `key:secret` from API_KEYS, on any path (a `/v3/<key>/` path must name the same key; X-Api-Key is not read);
 * - a PUBLIC_API_KEYS key as `Authorization`, `X-Api-Key` or `/v3/<key>/<read path>` (every form sent must agree),
 *   which opens isKeylessPath's paths only; a secret is never read from a URL;
 * - none: the keyless tier when PUBLIC_ACCESS is on (isKeylessPath), else a 401.
 * Wrong credentials are a 401 that counts against the address's AUTH_FAILURE_LIMIT (then 429 unless the same
 * credentials verified before). `address` null (lib/auth/client-address.ts): failures count per instance, where
 * valid credentials still pass the ceiling, and the keyless tier answers 503.
 */
export async function checkAccess(
  request: { path: string; headers: Headers; address: string | null },
  env: AccessSettings,
): Promise<AccessVerdict> {
  const { path, address } = request
  const { v3, basic, raw, headerKey } = presented(path, request.headers)
  const keys = [raw, headerKey, v3?.key].filter((k) => k !== undefined)
  const target = v3 ? v3.rest : path

  const clash = await checkCredentialNames(env.API_KEYS, env.PUBLIC_API_KEYS)
  if (clash !== null) return { pass: false, status: 503, message: clash, misconfigured: true }

  if (basic === undefined && keys.length === 0) {
    if (env.PUBLIC_ACCESS && isKeylessPath(path)) {
      // an unknown address is never one bucket shared by everyone, nor one the client names
      if (address === null) return { pass: false, status: 503, message: MESSAGES.noAddress, retryAfterSeconds: 1 }
      return { pass: true, identity: keylessIdentity(address), path }
    }
    return { pass: false, status: 401, message: env.PUBLIC_API_KEYS.trim() ? MESSAGES.missingPublic : MESSAGES.missing }
  }

  const knownNames = keys.map((k) => rememberedFor(env.PUBLIC_API_KEYS).get(k))
  const known =
    basic !== undefined ? isRemembered(basic, env.API_KEYS) : knownNames[0] !== undefined && knownNames.every((n) => n === knownNames[0])
  const blocked = known ? null : addressBlocked(address, env.AUTH_FAILURE_LIMIT)
  if (blocked !== null) return throttled(blocked)

  const failed = (reason: 'malformed' | 'invalid'): AccessVerdict => {
    const ceiling = instanceBlocked(env.AUTH_FAILURE_LIMIT)
    recordAuthFailure(address)
    if (ceiling !== null) return throttled(ceiling)
    const message = reason === 'invalid' ? MESSAGES.invalid : env.PUBLIC_API_KEYS.trim() ? MESSAGES.malformedPublic : MESSAGES.malformed
    return { pass: false, status: 401, message }
  }

  let identity: string
  if (basic !== undefined) {
    const result = await authenticate(basic, env.API_KEYS)
    if (!result.ok) {
      if (result.reason === 'misconfigured') return { pass: false, status: 503, message: MESSAGES.misconfigured, misconfigured: true }
      if (result.reason === 'malformed' || result.reason === 'invalid') return failed(result.reason)
      return { pass: false, status: 401, message: MESSAGES[result.reason] }
    }
    // Infura's form with the secret: the key in the path is the Basic key's own name
    if (v3 && !(await same(v3.key, result.key))) return failed('invalid')
    identity = result.key
  } else {
    const key = keys[0]!
    for (const other of keys.slice(1)) if (!(await same(other, key))) return failed('invalid')
    let entries
    try {
      entries = await loadPublicKeys(env.PUBLIC_API_KEYS)
    } catch {
      return { pass: false, status: 503, message: MESSAGES.misconfigured, misconfigured: true }
    }
    if (raw !== undefined && (entries.length === 0 || !PUBLIC_KEY_PATTERN.test(raw))) return failed('malformed')
    const name = await verifyPublicKey(entries, key)
    if (name === null) return failed('invalid')
    rememberedFor(env.PUBLIC_API_KEYS).set(key, name)
    identity = name
    // a key that needs no secret opens what the keyless tier would (/readyz with READYZ_AUTH=basic is not among it)
    if (!v3 && !isKeylessPath(path)) return { pass: false, status: 401, message: MESSAGES.readOnly }
  }
  if (v3 && !isReadApiPath(target)) return { pass: false, status: 404, message: MESSAGES.notFound }
  return { pass: true, identity, path: target }
}

/** 429 for an address (or instance) past AUTH_FAILURE_LIMIT. */
const throttled = (seconds: number): AccessVerdict => ({
  pass: false,
  status: 429,
  message: `Too many failed authentication attempts; retry after ${seconds} s.`,
  retryAfterSeconds: seconds,
})
