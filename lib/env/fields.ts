import { z } from 'zod'
import { parseGwei } from '../core/units'

/** The settings' shared value syntaxes (lib/env.ts joins the schemas that use them). */

export const booleanFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => (v === undefined || v === '' ? undefined : v === 'true' || v === '1'))

/** The longest rate-limit window: one week, in seconds. */
const MAX_RATE_WINDOW_SECONDS = 604_800

/** `<requests>/<seconds>`, e.g. `1200/60`; `0` disables the limit. */
export const RatePolicySchema = z
  .string()
  .regex(/^(0|[1-9]\d{0,8}\/[1-9]\d{0,5})$/, 'requests/seconds, e.g. 1200/60, or 0')
  .transform((s) => {
    const [limit, seconds] = s.split('/')
    return { limit: Number(limit), windowSeconds: Number(seconds ?? 1) }
  })
  // Node's timers reach 24.8 days and a window's anchor lives 3 windows (lib/ratelimit/counters.ts)
  .refine((p) => p.windowSeconds <= MAX_RATE_WINDOW_SECONDS, `a window of at most ${MAX_RATE_WINDOW_SECONDS} seconds (a week)`)

/** pino's levels, least severe last written: `LOG_LEVEL=warn` drops the request lines (info). */
export const LogLevelSchema = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')
/** How log lines are written: one JSON object per line (default), or pino-pretty's human-readable lines. */
export const LogFormatSchema = z.enum(['json', 'pretty']).default('json')

/** A comma-separated list of http(s) URLs (an RPC_URL_<chainId> value). */
export const RpcUrlListSchema = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((u) => u.trim())
      .filter((u) => u.length > 0),
  )
  .pipe(z.array(z.url({ protocol: /^https?$/ })).min(1, 'at least one http(s) URL'))

/** Whether a URL's host is this machine (127.0.0.0/8, ::1, localhost): plain http cannot leak there. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.toLowerCase()
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host)
}

/** A decimal gwei setting, as wei; unlike the API's GweiSchema it accepts trailing zeros ("30.0"). */
export const GweiSettingSchema = z
  .string()
  .regex(/^(0|[1-9]\d{0,17})(\.\d{1,9})?$/, 'a decimal gwei amount, e.g. "30" or "0.001"')
  .transform(parseGwei)
export const PercentSchema = z
  .number()
  .min(0)
  .max(100)
  .transform((p) => BigInt(Math.round(p * 10_000)))
