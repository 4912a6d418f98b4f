import Link from 'next/link'
import { ApiError } from './api-client'

/** Placeholder blocks while data loads. */
export function Skeleton({ className = '' }: { className?: string }) {
  return <div aria-hidden="true" className={`animate-pulse rounded-md bg-slate-200 dark:bg-slate-800 ${className}`} />
}

/** What went wrong, in words a person can act on, per status. */
export function describeError(error: unknown): { title: string; detail: string } {
  if (error instanceof ApiError) {
    if (error.status === 401)
      return {
        title: 'Not signed in',
        detail: 'The service did not accept your API key. Reload the page to enter your API key and secret.',
      }
    if (error.status === 400) return { title: 'Unknown or unsupported chain', detail: error.message }
    if (error.status === 503 || error.status === 502)
      return {
        title: 'No fee data right now',
        detail: `${error.message}${error.retryAfterSeconds ? ` Retrying in about ${error.retryAfterSeconds} s.` : ''}`,
      }
    if (error.status === 0) return { title: 'Service unreachable', detail: error.message }
    return { title: `Error ${error.status}`, detail: error.message }
  }
  return { title: 'Something went wrong', detail: error instanceof Error ? error.message : String(error) }
}

export function ErrorState({ error, compact = false }: { error: unknown; compact?: boolean }) {
  const { title, detail } = describeError(error)
  const status = error instanceof ApiError ? error.status : undefined
  return (
    <div
      role="alert"
      data-status={status}
      className={`rounded-lg border border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100 ${compact ? 'p-3 text-sm' : 'p-5'}`}
    >
      <p className="font-semibold">{title}</p>
      <p className="mt-1">{detail}</p>
      {!compact && status === 400 ? (
        <p className="mt-3">
          <Link className="underline" href="/">
            See the supported chains
          </Link>
        </p>
      ) : null}
    </div>
  )
}
