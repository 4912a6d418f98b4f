import { UpstreamUnavailableError } from '../core/contract/errors'

/** Rejects with `timeoutError()` (UpstreamUnavailableError by default) when `promise` has not settled within `ms`. */
export function withDeadline<T>(promise: Promise<T>, ms: number, timeoutError?: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          timeoutError?.() ?? new UpstreamUnavailableError(`The upstream node did not answer within ${Math.round(Math.max(0, ms))} ms.`),
        ),
      Math.max(0, ms),
    )
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}
