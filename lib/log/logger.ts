import pino, { type Logger } from 'pino'
import pretty from 'pino-pretty'
import { getLogFormat, getLogLevel } from '../env'
import { processSingleton } from '../runtime/process-singleton'

/**
 * Paths pino censors before a line is written, whatever a caller passes: credentials (an
 * Authorization header, a secret, a token, a password) and URLs, which carry provider keys
 * (RPC URLs) or the Redis password (REDIS_URL). Wildcards cover one level of nesting.
 */
const REDACT_PATHS = [
  'authorization',
  'Authorization',
  'headers.authorization',
  'headers.Authorization',
  'cookie',
  'headers.cookie',
  'API_KEYS',
  'METRICS_TOKEN',
  '*.API_KEYS',
  '*.METRICS_TOKEN',
  'req.headers.authorization',
  '*.authorization',
  '*.headers.authorization',
  'secret',
  '*.secret',
  'token',
  '*.token',
  'password',
  '*.password',
  'url',
  '*.url',
  'rpcUrls',
  '*.rpcUrls',
  'REDIS_URL',
  '*.REDIS_URL',
]

/**
 * A pino logger writing one JSON object per line to `destination` (stdout by default), as the service always
 * has: `level` as its name ("info", not 30), no pid or hostname, an ISO time, `msg` last. Stdout is written
 * asynchronously (lines that come while a write is under way go out together in the next one; pino flushes
 * what is left when the process exits), so a burst of requests does not pay one blocking write per line.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
  )
}

const state = processSingleton('logger', () => ({ logger: undefined as Logger | undefined }))

/**
 * pino-pretty's lines instead of JSON (LOG_FORMAT=pretty), written synchronously in this process (no
 * worker-thread transport, which Next's server bundles do not load reliably).
 */
export function prettyDestination(destination: number | NodeJS.WritableStream = 1): pino.DestinationStream {
  return pretty({ colorize: false, sync: true, translateTime: 'SYS:isoDateTime', destination })
}

/** The process's logger (LOG_LEVEL, default info; LOG_FORMAT, default json); created on first use, never at import time. */
export function logger(): Logger {
  return (state.logger ??= createLogger(getLogLevel(), getLogFormat() === 'pretty' ? prettyDestination() : undefined))
}
