/** Types for redis-timeout.mjs. */
/** REDIS_TIMEOUT_MS when unset: the longest any Redis command is waited for, ms. */
export const DEFAULT_REDIS_TIMEOUT_MS: 250
