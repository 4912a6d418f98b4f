/**
 * One run per key at a time: a call while the key's run is under way gets that run's promise instead of starting
 * another (a burst of requests with the same credentials checks them once). The entry goes when the run settles,
 * so nothing is kept past it and `pending` holds only the runs under way. A run must settle: one that never does holds
 * its key, and every later call with it, for good.
 * @example const pending = new Map<string, Promise<number>>(); joinInFlight(pending, 'k', slowLookup)
 */
export function joinInFlight<K, V>(pending: Map<K, Promise<V>>, key: K, run: () => Promise<V>): Promise<V> {
  const running = pending.get(key)
  if (running !== undefined) return running
  const started = run()
  pending.set(key, started)
  const done = () => {
    if (pending.get(key) === started) pending.delete(key)
  }
  started.then(done, done)
  return started
}
