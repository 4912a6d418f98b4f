/** The paths of the service's operations: the probes (/healthz, /readyz), /metrics and this document (/openapi.json). */
import { headers, json, ref, schemaRef, type Json } from './components'
import { readOnlyMethods } from './path-items'

/** OPTIONS and the write methods (405) of an operations path, under its own security (public: no 401); `extra` responses. */
const readOnly = (security: Json[], extra: Json = {}): Json =>
  Object.fromEntries(
    Object.entries(readOnlyMethods('operations')).map(([method, op]) => {
      const { '401': unauthorized, ...rest } = (op as { responses: Json }).responses
      const responses = { ...rest, ...(security.length > 0 ? { '401': unauthorized } : {}), ...extra }
      return [method, { ...(op as Json), security, responses }]
    }),
  )

/** /metrics' answer while no METRICS_TOKEN is configured. */
const metricsOff = (): Json => ({ description: 'Not Found: no METRICS_TOKEN is configured.', content: json(schemaRef('ErrorBody')) })

/** /healthz, /readyz, /metrics and /openapi.json (tag operations), each with its own security. */
export function operationsPaths(): Json {
  return {
    '/healthz': {
      get: {
        operationId: 'getHealth',
        tags: ['operations'],
        summary: 'Liveness: the process serves',
        description: 'No credentials, no upstream call, no configuration read.',
        security: [],
        responses: { '200': { description: 'OK', content: json(schemaRef('Health')) } },
      },
      ...readOnly([]),
    },
    '/readyz': {
      get: {
        operationId: 'getReadiness',
        tags: ['operations'],
        summary: 'Readiness: every configured chain has data the service would serve',
        description: 'No credentials by default; with READYZ_AUTH=basic an API key is needed.',
        security: [{}, { basicAuth: [] }],
        responses: {
          '200': { description: 'OK', content: json(schemaRef('Ready')) },
          '401': ref('responses', 'Unauthorized'),
          '429': ref('responses', 'TooManyRequests'),
          '500': ref('responses', 'InternalServerError'),
          '503': {
            description: 'Service Unavailable: not ready (the body names each chain and why), or misconfigured.',
            headers: headers(['Retry-After']),
            content: json({ anyOf: [schemaRef('NotReadyBody'), schemaRef('ErrorBody')] }),
          },
        },
      },
      ...readOnly([{}, { basicAuth: [] }]),
    },
    '/metrics': {
      get: {
        operationId: 'getMetrics',
        tags: ['operations'],
        summary: 'Prometheus metrics',
        description: 'Behind its own bearer token (METRICS_TOKEN); API keys do not open it. 404 while no token is configured.',
        security: [{ metricsToken: [] }],
        responses: {
          '200': {
            description: 'OK: Prometheus text exposition format 0.0.4.',
            headers: headers(['Cache-Control']),
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
          '401': {
            description: 'Unauthorized: no or a wrong bearer token.',
            headers: headers(['WWW-Authenticate']),
            content: json(schemaRef('ErrorBody')),
          },
          '404': metricsOff(),
          '429': ref('responses', 'TooManyRequests'),
          '500': ref('responses', 'InternalServerError'),
          '503': ref('responses', 'ServiceUnavailable'),
        },
      },
      ...readOnly([{ metricsToken: [] }], {
        '404': metricsOff(),
      }),
    },
    '/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        tags: ['operations'],
        summary: 'This document',
        description: 'Public: no credentials.',
        security: [],
        responses: {
          '200': {
            description: 'OK: the OpenAPI 3.1 document.',
            headers: headers(['Cache-Control']),
            content: json({ type: 'object', required: ['openapi', 'info', 'paths'] }),
          },
        },
      },
      ...readOnly([]),
    },
  }
}
