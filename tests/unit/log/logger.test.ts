import { Writable } from 'node:stream'
import { expect, test } from 'vitest'
import { batched, createLogger, prettyDestination, requestLine, type RequestFields } from '@/lib/log/logger'
import { getLogFormat, getLogLevel, getServerEnv } from '@/lib/env'

/** A logger writing into an array, one parsed line per entry. */
function capture(level = 'info') {
  const lines: string[] = []
  const log = createLogger(level, { write: (line: string) => void lines.push(line) })
  return { log, lines, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) }
}

test('default: one JSON line per call: level by name, the fields, msg; no pid or hostname', () => {
  const { log, lines, parsed } = capture()
  log.info({ method: 'GET', route: 'busyThreshold', status: 200, ms: 1.2, key: 'alice' }, 'request')
  expect(lines).toHaveLength(1)
  expect(lines[0]!.endsWith('\n')).toBe(true)
  expect(parsed()[0]).toMatchObject({ level: 'info', msg: 'request', method: 'GET', route: 'busyThreshold', status: 200, key: 'alice' })
  expect(parsed()[0]).not.toHaveProperty('pid')
  expect(parsed()[0]).not.toHaveProperty('hostname')
  expect(typeof parsed()[0]!.time).toBe('string')
})

test("default: a request's line, built without pino, is byte for byte the line pino writes for it", () => {
  const { log, lines } = capture()
  const cases: RequestFields[] = [
    { method: 'GET', route: 'stream', chainId: '8453', status: 200, ms: 0.4, key: 'alice', block: '123', stale: undefined },
    { method: 'GET', route: 'suggestedGasFees', chainId: 'x"\\\n\u2028…', status: 400, ms: 12, key: undefined, stale: true },
    {},
  ]
  for (const fields of cases) log.info(fields, 'request')
  expect(lines).toHaveLength(3)
  lines.forEach((line, i) => {
    const time = new Date(JSON.parse(line).time as string)
    expect(requestLine(cases[i]!, time)).toBe(line)
  })
})

test('behavior: authorization headers, secrets, tokens, passwords and URLs are censored', () => {
  const { log, lines } = capture()
  log.error(
    {
      authorization: 'Basic YWxpY2U6c2VjcmV0',
      headers: { authorization: 'Bearer metrics-token-123456' },
      secret: 'the-api-secret-1234',
      config: {
        token: 'tok-abcdefgh',
        password: 'p4ssw0rd',
        url: 'https://mainnet.example/v3/KEY123',
        rpcUrls: ['https://x.example/KEY456'],
      },
      url: 'redis://:hunter2@redis.internal:6379',
      REDIS_URL: 'redis://:hunter3@redis.internal:6379',
    },
    'boom',
  )
  for (const leaked of [
    'YWxpY2U6c2VjcmV0',
    'metrics-token',
    'the-api-secret',
    'tok-abcdefgh',
    'p4ssw0rd',
    'KEY123',
    'KEY456',
    'hunter2',
    'hunter3',
  ])
    expect(lines.join('')).not.toContain(leaked)
  expect(lines.join('')).toContain('[redacted]')
})

test('args: LOG_LEVEL picks the least severe level written', () => {
  const { log, parsed } = capture('warn')
  log.info('not written')
  log.warn('written')
  expect(parsed().map((l) => l.msg)).toEqual(['written'])
  expect(getLogLevel({})).toBe('info')
  expect(getLogLevel({ LOG_LEVEL: 'debug' })).toBe('debug')
  // the logger still works with a bad value; the start refuses it
  expect(getLogLevel({ LOG_LEVEL: 'loud' })).toBe('info')
  expect(() => getServerEnv({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/)
})

test('behavior: LOG_FORMAT=pretty writes human-readable lines, censored like the JSON ones', () => {
  const lines: string[] = []
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  const log = createLogger('info', prettyDestination(sink))
  log.info({ route: 'busyThreshold', status: 200, secret: 'the-api-secret-1234', url: 'https://x.example/KEY9' }, 'request')
  const text = lines.join('')
  expect(text).toMatch(/INFO.*request/)
  expect(text).toContain('route: "busyThreshold"')
  expect(text).not.toMatch(/^\{/)
  expect(text).not.toContain('the-api-secret-1234')
  expect(text).not.toContain('KEY9')
  expect(getLogFormat({ LOG_FORMAT: 'pretty' })).toBe('pretty')
  expect(getLogFormat({})).toBe('json')
  expect(() => getServerEnv({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/)
})

test("behavior: stdout's batches: the lines of one turn of the event loop are one write, in order, written before the next turn ends", async () => {
  const writes: string[] = []
  const log = createLogger('info', batched({ write: (chunk: string) => void writes.push(chunk) }))
  log.info({ n: 1 }, 'request')
  log.info({ n: 2 }, 'request')
  expect(writes).toEqual([])
  await new Promise((r) => setImmediate(r))
  expect(writes).toHaveLength(1)
  const lines = writes[0]!
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { n: number })
  expect(lines.map((l) => l.n)).toEqual([1, 2])
  log.info({ n: 3 }, 'request')
  await new Promise((r) => setImmediate(r))
  expect(writes).toHaveLength(2)
  expect(writes[1]).toContain('"n":3')
})
