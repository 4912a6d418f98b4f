/**
 * One value per process under `name`, kept on globalThis: Next may bundle a module once per
 * route, and the single-flight, health, rate-limit and metrics state must be shared by all of them.
 */
export function processSingleton<T>(name: string, create: () => T): T {
  const key = Symbol.for(`gas-api.${name}`)
  const store = globalThis as Record<symbol, unknown>
  if (!(key in store)) store[key] = create()
  return store[key] as T
}
