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
 * has: `level` as its name ("info", not 30), no pid or hostname, an ISO time, `msg` last. Stdout's lines go
 * out in batches (batched below).
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
    destination ?? stdoutLines(),
  )
}

/** Stdout, written synchronously in batches (the JSON logger's destination). */
const stdoutLines = () => batched(pino.destination({ dest: 1, sync: true }))

/** Most characters a batch gathers before it is written at once. */
const MAX_BATCH = 64 * 1024

/**
 * A destination that gathers the lines logged in one turn of the event loop and writes them to `out` together, in
 * order (a burst of requests pays one write, not one per line); what is gathered is written when the process exits.
 */
export function batched(out: pino.DestinationStream): pino.DestinationStream {
  let lines = ''
  const flush = () => {
    if (lines === '') return
    const chunk = lines
    lines = ''
    out.write(chunk)
  }
  process.on('exit', flush)
  return {
    write(line: string) {
      if (lines === '') setImmediate(flush)
      lines += line
      if (lines.length >= MAX_BATCH) flush()
    },
  }
}

const state = processSingleton('logger', () => ({
  logger: undefined as Logger | undefined,
  /** The JSON logger's destination (undefined with LOG_FORMAT=pretty): request lines go straight to it. */
  json: undefined as pino.DestinationStream | undefined,
}))

/**
 * pino-pretty's lines instead of JSON (LOG_FORMAT=pretty), written synchronously in this process (no
 * worker-thread transport, which Next's server bundles do not load reliably).
 */
export function prettyDestination(destination: number | NodeJS.WritableStream = 1): pino.DestinationStream {
  return pretty({ colorize: false, sync: true, translateTime: 'SYS:isoDateTime', destination })
}

/** The process's logger (LOG_LEVEL, default info; LOG_FORMAT, default json); created on first use, never at import time. */
export function logger(): Logger {
  if (!state.logger) {
    const json = getLogFormat() === 'pretty' ? undefined : stdoutLines()
    state.logger = createLogger(getLogLevel(), json ?? prettyDestination())
    state.json = json
  }
  return state.logger
}

/** The request log's fields (lib/http/observe.ts): the service's own, none of them a secret or on a redaction path. */
export type RequestFields = {
  method?: string
  route?: string
  chainId?: string
  status?: number
  ms?: number
  key?: string
  block?: string
  stale?: true
}

/** The JSON line pino writes for `info(fields, 'request')` at `time`, built without its redaction pass. */
export function requestLine(fields: RequestFields, time: Date): string {
  const body = JSON.stringify(fields)
  return `{"level":"info","time":"${time.toISOString()}",${body.length > 2 ? `${body.slice(1, -1)},` : ''}"msg":"request"}\n`
}

/**
 * Logs one answer at info: the JSON line written as it is (a burst of stream opens logs thousands a second, and
 * pino's pass over its redaction paths cost more than the line); LOG_FORMAT=pretty through the logger.
 */
export function logRequest(fields: RequestFields): void {
  const log = logger()
  if (!log.isLevelEnabled('info')) return
  if (state.json) state.json.write(requestLine(fields, new Date()))
  else log.info(fields, 'request')
}
