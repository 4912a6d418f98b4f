/** The path items the document's paths are made of: a window's answer, a catalogue's, the read-only methods every path answers. */
import { errors, FRESHNESS_HEADERS, headers, json, RATE_LIMIT_HEADERS, ref, schemaRef, type Json, type SchemaName } from './components'

/** Every status an authenticated API handler can answer besides 200 (middleware and handler). */
export const API_ERRORS = ['Unauthorized', 'TooManyRequests', 'ServiceUnavailable', 'InternalServerError'] as const
export const CHAIN_ERRORS = ['BadRequest', ...API_ERRORS, 'BadGateway'] as const

/** OPTIONS and the write methods of a read-only route (lib/http/routes.ts readOnlyRoute). */
export function readOnlyMethods(tag: string): Json {
  const write = {
    tags: [tag],
    summary: 'Not allowed: the API is read-only.',
    responses: { '405': ref('responses', 'MethodNotAllowed'), ...errors('Unauthorized', 'TooManyRequests', 'ServiceUnavailable') },
  }
  return {
    options: {
      tags: [tag],
      summary: 'The methods this path answers.',
      responses: { '204': { description: 'No Content, with Allow.', headers: headers(['Allow']) }, ...errors(...API_ERRORS) },
    },
    post: write,
    put: write,
    patch: write,
    delete: write,
  }
}

/** A GET answered from a chain's window: 200 with the freshness headers and the schema's body, the chain errors; OPTIONS and the writes. */
export function windowAnswer(tag: string, operationId: string, summary: string, description: string, body: SchemaName): Json {
  return {
    get: {
      operationId,
      tags: [tag],
      summary,
      description,
      responses: {
        '200': {
          description: 'OK',
          headers: headers(FRESHNESS_HEADERS, ['Warning', ...RATE_LIMIT_HEADERS]),
          content: json(schemaRef(body)),
        },
        ...errors(...CHAIN_ERRORS),
      },
    },
    ...readOnlyMethods(tag),
  }
}

/** An answer about the service rather than one chain (cacheable for a minute), and its errors. */
export function catalogPath(operationId: string, tag: string, summary: string, body: SchemaName, description?: string): Json {
  return {
    get: {
      operationId,
      tags: [tag],
      summary,
      ...(description ? { description } : {}),
      responses: {
        '200': {
          description: 'OK',
          headers: headers(['Cache-Control'], RATE_LIMIT_HEADERS),
          content: json(schemaRef(body)),
        },
        ...errors(...API_ERRORS),
      },
    },
    ...readOnlyMethods(tag),
  }
}

/** A path's GET with query parameters besides the path's own. */
export function withQuery(path: Json, query: Json[]): Json {
  const get = path.get as Json
  return { ...path, get: { ...get, parameters: query } }
}
