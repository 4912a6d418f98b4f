/** Error classes the service raises. */

export class InvalidChainIdError extends Error {
  override name = 'InvalidChainIdError'
  constructor(raw: string) {
    super(`'${preview(raw)}' is not a valid chain id: use a positive decimal integer such as 1.`)
  }
}

export class UnsupportedChainError extends Error {
  override name = 'UnsupportedChainError'
  constructor(chainId: number) {
    super(`'${chainId}' is not a supported chain id.`)
  }
}

/** The chain's blocks carry no baseFeePerGas: there is no EIP-1559 fee market to estimate. */
export class FeeMarketUnsupportedError extends Error {
  override name = 'FeeMarketUnsupportedError'
  constructor(chainId: number) {
    super(`Chain ${chainId} does not use EIP-1559 fees (its blocks have no baseFeePerGas), so no EIP-1559 estimates exist for it.`)
  }
}

/**
 * The chain carries no blobs (EIP-4844 blob transactions): it is one that takes none (lib/core/chain-rules/blob-schedule.ts
 * NO_BLOB_CHAINS), its head is before its first blob fork, or, for a chain the tables do not name, its
 * node reports no blob base fee. There are no blob fees to estimate.
 */
export class BlobFeeMarketUnsupportedError extends Error {
  override name = 'BlobFeeMarketUnsupportedError'
  constructor(chainId: number) {
    super(`Chain ${chainId} carries no blobs (EIP-4844 blob transactions), so no blob fees exist for it.`)
  }
}

/**
 * A chain without EIP-1559 whose window holds no transaction priced above 2 wei: there is nothing to
 * derive a legacy gas price from (an empty block says nothing about the lowest price miners accept).
 */
export class NoPriceDataError extends Error {
  override name = 'NoPriceDataError'
  readonly retryAfterSeconds = 5
  constructor(chainId: number, blocks: number) {
    super(`Chain ${chainId}'s last ${blocks} blocks hold no priced transaction to derive gas prices from.`)
  }
}

/**
 * A query parameter of GET /networks/{chainId}/replacementFees is missing, unknown, repeated or malformed:
 * the message names the parameter (`parameter`) and what is wrong with it.
 */
export class InvalidQueryError extends Error {
  override name = 'InvalidQueryError'
  constructor(
    readonly parameter: string,
    problem: string,
  ) {
    super(`Query parameter '${preview(parameter)}' ${problem}`)
  }
}

/** A blob transaction's fee (maxFeePerBlobGas) was given for a chain whose pools take no blob transactions. */
export class BlobsUnsupportedError extends Error {
  override name = 'BlobsUnsupportedError'
  constructor(chainId: number) {
    super(`Query parameter 'maxFeePerBlobGas' is not allowed: chain ${chainId} takes no blob (EIP-4844 type-3) transactions.`)
  }
}

/** The node answered, but with something unusable (non-JSON, wrong shape, wrong chain, an RPC error). */
export class UpstreamBadResponseError extends Error {
  override name = 'UpstreamBadResponseError'
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
  }
}

/** No data could be had from the node (unreachable, timed out, rate-limited). */
export class UpstreamUnavailableError extends Error {
  override name = 'UpstreamUnavailableError'
  constructor(message: string, options?: { cause?: unknown; retryAfterSeconds?: number }) {
    super(message, options)
    this.retryAfterSeconds = options?.retryAfterSeconds ?? 1
  }
  readonly retryAfterSeconds: number
}

export class MethodNotAllowedError extends Error {
  override name = 'MethodNotAllowedError'
  constructor(method: string) {
    super(`Method ${preview(method)} is not allowed: this API is read-only, use GET.`)
  }
}

export class NotFoundError extends Error {
  override name = 'NotFoundError'
}

/** A request reached a handler without an identity the middleware vouched for. */
export class UnauthenticatedError extends Error {
  override name = 'UnauthenticatedError'
  constructor() {
    super('Authentication required: send HTTP Basic credentials (API key as user name, API key secret as password).')
  }
}

/** Input echoed in messages is cut short, so a 10,000-digit id does not come back whole. */
function preview(raw: string): string {
  return raw.length > 32 ? `${raw.slice(0, 32)}…` : raw
}

export class RateLimitedError extends Error {
  override name = 'RateLimitedError'
  /** `asked`: the request's units, one per chain a multi-chain call names; `left`: the units the quota had left for it. */
  constructor(
    limit: number,
    windowSeconds: number,
    readonly retryAfterSeconds: number,
    readonly headers: Record<string, string>,
    counted: { asked: number; left: number } = { asked: 1, left: 0 },
  ) {
    const { asked, left } = counted
    const quota = `the rate limit of ${limit} requests per ${windowSeconds} s of this API key (keyless: this client address)`
    super(
      asked <= 1
        ? `Rate limit of ${limit} requests per ${windowSeconds} s exceeded for this API key (keyless: this client address); retry in ${retryAfterSeconds} s.`
        : asked > limit
          ? `This call counts ${asked} requests, one per chain it names: more than ${quota}, so it never fits; name at most ${limit} chains a call.`
          : `This call counts ${asked} requests, one per chain it names, and ${left} are left of ${quota}; retry in ${retryAfterSeconds} s.`,
    )
  }
}

/** An API key (or a keyless client address) already holds as many streams as it may (STREAM_MAX_PER_KEY). */
export class TooManyStreamsError extends Error {
  override name = 'TooManyStreamsError'
  readonly retryAfterSeconds = 5
  /** `asked`: the slots the stream takes, one per chain a multi-chain stream names. */
  constructor(limit: number, keyless = false, asked = 1) {
    const who = keyless ? 'client address' : 'API key'
    super(
      asked <= 1
        ? `This ${who} already holds ${limit} open stream${limit === 1 ? '' : 's'}, the most it may; close one, or retry in 5 s.`
        : asked > limit
          ? `This stream names ${asked} chains and takes a stream slot for each: more than the ${limit} this ${who} may hold, so it never opens; name at most ${limit} chains a stream.`
          : `This stream names ${asked} chains and takes a stream slot for each: more than this ${who} has free of its ${limit}; close a stream, or retry in 5 s.`,
    )
  }
}

/** The service holds as many streams as it may: all keyless clients together (PUBLIC_STREAM_LIMIT) or all callers (STREAM_MAX_TOTAL). */
export class StreamCapacityError extends Error {
  override name = 'StreamCapacityError'
  readonly retryAfterSeconds = 30
  /** `asked`: the slots the stream takes, one per chain a multi-chain stream names. */
  constructor(scope: 'keyless' | 'instance', limit: number, asked = 1) {
    const holder = scope === 'keyless' ? 'The keyless tier' : 'This instance'
    const instead = scope === 'keyless' ? 'send an API key, poll the endpoints' : 'poll the endpoints'
    const list = `This stream names ${asked} chains and takes a stream slot for each`
    super(
      asked <= 1
        ? `${holder} holds ${limit} open streams, the most it may; ${instead}, or retry in 30 s.`
        : asked > limit
          ? `${list}: more than the ${limit} ${holder.toLowerCase()} may hold, so it never opens; name fewer chains, or ${instead}.`
          : `${list}: more than ${holder.toLowerCase()} has free of its ${limit}; ${instead}, or retry in 30 s.`,
    )
  }
}
