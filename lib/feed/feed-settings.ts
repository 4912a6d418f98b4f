/** The feed's settings, built once from the configuration (lib/fees) and passed in. */
export type FeedSettings = {
  /** Longest a read waits for the node (RPC_TIMEOUT_MS), ms. */
  rpcTimeoutMs: number
  /** How old a window may be served, marked stale, while reads fail (MAX_STALE_SECONDS), ms. */
  maxStaleMs: number
  /** How old the head may be by the wall clock before answers are stale (MAX_HEAD_AGE_SECONDS), ms; undefined: max(60 s, 10 intervals); 0: never. */
  maxHeadAgeMs: number | undefined
  /** How long the chain stays warm after its last request or subscriber (FEED_WARM_SECONDS), ms; 0: never. */
  warmMs: number
  /** Longest a request waits for a due read (FEED_WAIT_MS), ms. */
  waitMs: number
}
