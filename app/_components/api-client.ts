import './zod-without-eval'
import type { z } from 'zod'
import { ErrorBodySchema } from '@/lib/core/contract/schemas'

/** Freshness of an answer, from the service's headers. */
export type Freshness = {
  blockNumber: number
  /** Seconds the data was old when it arrived (Age header). */
  ageAtFetch: number
  /** When it arrived, ms since the epoch (browser clock). */
  receivedAt: number
  stale: boolean
  /** The chain's measured block interval, ms. */
  blockIntervalMs: number
}

/** A non-2xx answer of the API, with its JSON error body. */
export class ApiError extends Error {
  override name = 'ApiError'
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message)
  }
}

/**
 * GETs an API path on this origin (the browser adds the Basic credentials it was given for the
 * page; with PUBLIC_ACCESS the page needs none and the request goes out keyless) and validates the
 * body with the server's own zod schema.
 */
export async function fetchApi<T extends z.ZodType>(path: string, schema: T): Promise<{ data: z.output<T>; freshness: Freshness }> {
  let res: Response
  try {
    res = await fetch(path, { credentials: 'same-origin', cache: 'no-store', headers: { accept: 'application/json' } })
  } catch {
    throw new ApiError(0, 'The service could not be reached.')
  }
  const body: unknown = await res.json().catch(() => null)
  if (!res.ok) {
    const parsed = ErrorBodySchema.safeParse(body)
    const retry = Number(res.headers.get('retry-after'))
    throw new ApiError(
      res.status,
      parsed.success ? parsed.data.message : `HTTP ${res.status}`,
      Number.isFinite(retry) && retry > 0 ? retry : undefined,
    )
  }
  const parsed = schema.safeParse(body)
  if (!parsed.success) throw new ApiError(res.status, 'The service answered with data of an unexpected shape.')
  return {
    data: parsed.data,
    freshness: {
      blockNumber: Number(res.headers.get('x-block-number')),
      ageAtFetch: Number(res.headers.get('age') ?? 0),
      receivedAt: Date.now(),
      stale: res.headers.get('x-data-stale') === 'true',
      blockIntervalMs: Number(res.headers.get('x-block-interval-ms')) || 2_000,
    },
  }
}
