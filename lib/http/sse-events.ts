/** The stream's Server-Sent Events, as the wire carries them. */

/**
 * The `fees` event of a report: the five fee endpoints' bodies as the REST endpoints serve them for
 * the same block, and last, on a chain with blobs, GET blobFees' body (`blobFees`).
 */
export function feesEvent(
  blockNumber: number,
  stale: boolean,
  bodies: Record<'suggestedGasFees' | 'busyThreshold' | 'baseFeePercentile' | 'baseFeeHistory' | 'baseFeeForecast', string>,
  blobFees?: string,
  pending?: { blockNumber: number; piece: number },
): string {
  const piece = pending ? `"pending":{"blockNumber":${pending.blockNumber},"piece":${pending.piece}},` : ''
  const data = `{"blockNumber":${blockNumber},"stale":${stale},${piece}"suggestedGasFees":${bodies.suggestedGasFees},"busyThreshold":${bodies.busyThreshold},"baseFeePercentile":${bodies.baseFeePercentile},"baseFeeHistory":${bodies.baseFeeHistory},"baseFeeForecast":${bodies.baseFeeForecast}}`
  // the blob fees go after every other key: the object's closing brace gives way to them
  const withBlobs = blobFees === undefined ? data : `${data.slice(0, -1)},"blobFees":${blobFees}}`
  return `event: fees\nid: ${blockNumber}\ndata: ${withBlobs}\n\n`
}

/** The `error` event: the JSON error body the REST endpoints would answer (one line: JSON.stringify never emits a newline). */
export function errorEvent(body: string): string {
  return `event: error\ndata: ${body.replace(/\n/g, ' ')}\n\n`
}

/**
 * A chain's event as a multi-chain stream (GET /v1/stream) sends it: the same data with `chainId` first, and no
 * `id:` (a block number names no position in a stream of several chains).
 * @example withChainId('event: fees\nid: 7\ndata: {"blockNumber":7}\n\n', 1) // 'event: fees\ndata: {"chainId":1,"blockNumber":7}\n\n'
 */
export function withChainId(event: string, chainId: number): string {
  return event.replace(/^(event: [a-z]+\n)(?:id: [^\n]*\n)?data: \{/, `$1data: {"chainId":${chainId},`)
}
