/**
 * What a shared store answers when it cannot answer (not configured, reconnecting, failed or slow): the
 * caller carries on from its own memory.
 */
export const UNAVAILABLE = Symbol('shared store unavailable')
export type Unavailable = typeof UNAVAILABLE
