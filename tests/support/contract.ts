import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import { openApiDocument } from '@/lib/http/openapi'

/**
 * The contract checker: does a live answer conform to GET /openapi.json (lib/http/openapi.ts)? Its
 * status must be listed for the path and method, the headers that status requires present and of
 * their schemas, its content type documented, and a JSON body valid against that status's schema
 * (JSON Schema 2020-12, ajv). Paths the document does not describe (the pages, assets, unknown
 * paths) are outside the contract and not checked. HEAD is checked as GET without a body.
 */

type Json = Record<string, unknown>

/** An answer as a test received it. `body` is the parsed JSON, or the text when it is not JSON. */
export type LiveAnswer = {
  method: string
  path: string
  status: number
  headers: Headers | Record<string, string | string[] | undefined>
  body: unknown
}

const DOC_ID = 'openapi.json'
const doc = openApiDocument() as { paths: Record<string, Json>; components: Json }
const ajv = new Ajv2020({ strict: false, allErrors: true })
ajv.addSchema(doc, DOC_ID)

const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1')
const validators = new Map<string, ValidateFunction>()
function validatorAt(pointer: string): ValidateFunction {
  let v = validators.get(pointer)
  if (!v) {
    v = ajv.compile({ $ref: `${DOC_ID}#${pointer}` })
    validators.set(pointer, v)
  }
  return v
}

/** Follows a `$ref` inside the document: the object and its JSON pointer. */
function deref(node: Json, pointer: string): [Json, string] {
  const target = node.$ref
  if (typeof target !== 'string') return [node, pointer]
  const path = target.replace(/^#/, '')
  const found = path
    .split('/')
    .slice(1)
    .reduce<unknown>((n, k) => (n as Json)[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc)
  return deref(found as Json, path)
}

/** The document's path template matching a request path (concrete paths before templated ones). */
function templateOf(path: string): string | undefined {
  const templates = Object.keys(doc.paths).sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')))
  return templates.find((t) => new RegExp(`^${t.replace(/\./g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path))
}

function header(headers: LiveAnswer['headers'], name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined
  const v = headers[name.toLowerCase()]
  return Array.isArray(v) ? v.join(', ') : v
}

/** A header's value as its schema's type reads it (OpenAPI's "simple" style). */
function headerValue(raw: string, schema: Json): unknown {
  if (schema.type === 'integer' || schema.type === 'number') return /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw
  if (schema.type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw
  return raw
}

const errorsOf = (v: ValidateFunction) => (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')

/**
 * What in an answer breaks the contract: an empty list when it conforms, or when its path is outside
 * the document (then `outside` is true).
 */
export function contractViolations(answer: LiveAnswer): { outside: boolean; violations: string[] } {
  // the path the server routes: dot segments removed, as URL parsing (and Next) does
  const path = new URL(answer.path, 'http://contract.invalid').pathname
  const template = templateOf(path)
  if (template === undefined) return { outside: true, violations: [] }
  const where = `${answer.method} ${path} → ${answer.status}`
  const method = answer.method.toLowerCase() === 'head' ? 'get' : answer.method.toLowerCase()
  const operation = doc.paths[template]![method] as Json | undefined
  if (!operation) return { outside: false, violations: [`${where}: the document has no ${method.toUpperCase()} ${template}`] }
  const opPointer = `/paths/${escape(template)}/${method}`
  const responses = operation.responses as Json
  const listed = responses[String(answer.status)] ?? responses.default
  if (!listed)
    return { outside: false, violations: [`${where}: status ${answer.status} is not documented for ${method.toUpperCase()} ${template}`] }
  const [response, responsePointer] = deref(listed as Json, `${opPointer}/responses/${answer.status}`)
  const violations: string[] = []

  for (const [name, h] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
    const required = h.required === true
    const [def, defPointer] = deref(h, `${responsePointer}/headers/${escape(name)}`)
    const value = header(answer.headers, name)
    if (value === undefined) {
      if (required) violations.push(`${where}: required header ${name} is missing`)
      continue
    }
    const v = validatorAt(`${defPointer}/schema`)
    if (!v(headerValue(value, def.schema as Json))) violations.push(`${where}: header ${name}: ${JSON.stringify(value)} ${errorsOf(v)}`)
  }

  const content = response.content as Record<string, Json> | undefined
  if (content && answer.method.toUpperCase() !== 'HEAD') {
    const type = (header(answer.headers, 'content-type') ?? '').split(';')[0]!.trim()
    if (!(type in content)) {
      violations.push(`${where}: content type "${type}" is not one of ${Object.keys(content).join(', ')}`)
    } else if (type === 'application/json') {
      const v = validatorAt(`${responsePointer}/content/${escape(type)}/schema`)
      if (typeof answer.body === 'string') violations.push(`${where}: the body is not JSON`)
      else if (!v(answer.body)) violations.push(`${where}: body ${errorsOf(v)}`)
    }
  }
  return { outside: false, violations }
}

/** Throws when an answer breaks the contract (the integration helpers call it on every answer). */
export function assertContract(answer: LiveAnswer): void {
  const { violations } = contractViolations(answer)
  if (violations.length > 0) throw new Error(`The answer breaks GET /openapi.json:\n  ${violations.join('\n  ')}`)
}

/** What in one Server-Sent Event of GET /networks/{chainId}/stream breaks the contract (its media type's x-sse-events). */
export function streamEventViolations(event: string, data: unknown): string[] {
  const pointer = `/paths/${escape('/networks/{chainId}/stream')}/get/responses/200/content/${escape('text/event-stream')}/x-sse-events/${escape(event)}`
  const events = (((doc.paths['/networks/{chainId}/stream'] as Json).get as Json).responses as Json)['200'] as Json
  const known = ((events.content as Json)['text/event-stream'] as Json)['x-sse-events'] as Json
  if (!(event in known)) return [`stream: event "${event}" is not documented`]
  const v = validatorAt(pointer)
  return v(data) ? [] : [`stream: event ${event}: ${errorsOf(v)}`]
}
