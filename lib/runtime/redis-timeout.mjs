// @ts-check Plain JavaScript because Next's cache handler (lib/store/next-cache-handler*.mjs) loads outside
// the app bundle and cannot import TypeScript; lib/env.ts imports it too, so the default has one home.

/** REDIS_TIMEOUT_MS when unset: the longest any Redis command is waited for, ms. */
export const DEFAULT_REDIS_TIMEOUT_MS = 250
