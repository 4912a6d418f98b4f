/**
 * What a shared store answers when it cannot answer (not configured, reconnecting, failed or slow):
 * the caller carries on from its own memory. Part of the store contract, so code that is agnostic
 * of the store (the cross-instance single-flight) needs no store implementation to name it.
 */
export const UNAVAILABLE = Symbol('shared store unavailable')
export type Unavailable = typeof UNAVAILABLE
