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

/** Resolves with the promise's value if it settles within `ms`, else with undefined (never rejects). */
export function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined
  return Promise.race([
    promise.catch(() => undefined),
    new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, ms)))),
  ]).finally(() => clearTimeout(timer))
}
