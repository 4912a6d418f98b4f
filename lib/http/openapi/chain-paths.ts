/** The lane parameter of the fee endpoints that price a transaction (lib/http/lane-query.ts). */
const LANE_QUERY = {
  name: 'lane',
  in: 'query',
  required: false,
  description:
    "Which blocks the levels are for: `small` (the default, every chain's own blocks) or `big`, HyperEVM's (999) big blocks: priced from eth_bigBlockGasPrice (the next big block's base fee, +12.5% for one step), tips 0, waits from one block up to the big blocks' 60 s cadence. `big` on a chain without big blocks, a repeated lane or any other value: 400 naming lane.",
  schema: { type: 'string', enum: ['small', 'big'] },
  example: 'big',
}

/** The paths of one chain's endpoints, /networks/{chainId}/…: the JSON answers of its window and its event stream. */
import { headers, RATE_LIMIT_HEADERS, ref, schemaRef, errors, type Json, type SchemaName } from './components'
import { API_ERRORS, readOnlyMethods, windowAnswer, withQuery } from './path-items'
import { REPLACEMENT_QUERY_PARAMETERS } from '../replacement-query'

/** One chain's JSON endpoint: its window's answer under /networks/{chainId}/. */
function chainEndpoint(operationId: string, summary: string, description: string, body: SchemaName): Json {
  return { parameters: [ref('parameters', 'chainId')], ...windowAnswer('fees', operationId, summary, description, body) }
}

/** The query of GET replacementFees: the pending transaction's fees (lib/http/replacement-query.ts). */
const REPLACEMENT_QUERY: Record<(typeof REPLACEMENT_QUERY_PARAMETERS)[number], string> = {
  maxFeePerGas: "The pending EIP-1559 (or blob) transaction's max fee per gas, gwei. With maxPriorityFeePerGas.",
  maxPriorityFeePerGas: 'Its max priority fee per gas, gwei: not above maxFeePerGas. With maxFeePerGas.',
  maxFeePerBlobGas: "A blob transaction's max fee per blob gas, gwei, with the two above; 400 on a chain without blob transactions.",
  gasPrice: "A legacy transaction's gas price, gwei: alone, never with the three above.",
}

const REPLACEMENT_DESCRIPTION =
  "The fees that replace a pending transaction (a speed-up, or a cancel: a zero-value transaction to oneself with the same nonce). `minimum`: each of the query's fees × 110% (a blob transaction's × 200%), rounded up to the wei and at least 1 wei above the old fee, the lowest replacement that geth, reth, erigon, bor, op-geth and anvil accept; `low`/`medium`/`high`: the larger of `minimum` and the level's current suggestion (suggestedGasFees; gasPrices for a legacy transaction), field by field, the tip never above the max fee; a blob fee is the minimum's at every level. The fields are the query's: maxFeePerGas and maxPriorityFeePerGas (plus maxFeePerBlobGas), or gasPrice. 400 names the parameter: missing, unknown or repeated, gasPrice with EIP-1559 fields, a value that is negative, has an exponent, more than 9 decimals or is past 2^256 − 1 wei, a tip above the max fee, maxFeePerBlobGas on a chain without blob transactions."

const TRANSACTION_COST_DESCRIPTION =
  "A transaction's whole cost per level, in gwei of the chain's native token (nativeToken: MNT on Mantle; not per gas): `fee` = gas × min(the next base fee + the level's maxPriorityFeePerGas, its maxFeePerGas) + l1DataFee + operatorFee, what it will most likely cost; `maxFee` = gas × maxFeePerGas + the L1 data fee's cap over the level's wait + operatorFee, what a wallet must hold; each level shows the tip and max fee per gas it assumes. l1DataFee, by the chain's rule (l1DataFeeBasis says exact or upperBound): OP-stack (Fjord and later) GasPriceOracle.getL1FeeUpperBound(txBytes) at the head, raised to FastLZ's worst case (s + ceil(s/32), s = txBytes + 68) where that is larger, or with `tx` the Fjord fee at the FastLZ size of the transaction signed (as the node charges it; getL1Fee(tx) counts the unsigned size + 68); Mantle the same × tokenRatio, in MNT, with its operator fee; Scroll Galileo's fee: with `tx` exact, at the zstd-compressed size of the signed transaction as its node compresses it (upperBound where the service's optional zstd binding is missing), with txBytes at the signed size, an upper bound; Arbitrum ArbGasInfo's price per L1 calldata byte × the signed size (an upper bound: the chain charges the Brotli-compressed size); \"0\" on L1s, on Linea (the data cost rides in the tip: every level's tip is at least priorityFeeFloor, what its sequencer takes for this gas and size, from the head's extraData) and on zkSync Era (pubdata is gas: pass eth_estimateGas's gas; tips are 0); null on an L2 whose L1 fee the service does not compute (Metis). operatorFee by the chain's fork (OP-stack Isthmus, Jovian; Mantle). gasCharged \"limit\" on Monad, which charges the whole gas limit: send as gas the limit the wallet signs, and keep it tight. txBytes defaults to 51 (a plain EIP-1559 transfer, unsigned). Same window as suggestedGasFees: no upstream call of its own. 400 names the parameter: gas missing, repeated, not a decimal integer, under 21,000 or above the chain's per-transaction cap (2^24 on Ethereum since Osaka, 32,000,000 on Arbitrum, the head's gas limit elsewhere); txBytes over 131,072 (128 KiB); tx not an unsigned serialized transaction; both tx and txBytes; an unknown parameter. docs/api.md gives each chain family's rule and source."

const TRANSACTION_COST_QUERY = [
  {
    name: 'gas',
    in: 'query',
    required: true,
    description:
      "The transaction's gas limit (on Arbitrum its L2 execution gas, without the L1 component; on zkSync Era eth_estimateGas's, pubdata included; on Linea the unpadded estimate: its block builder checks the tip again at the gas used, so a tip sized on a padded limit can fall short): a decimal integer of at least 21,000.",
    schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
    example: '21000',
  },
  {
    name: 'txBytes',
    in: 'query',
    required: false,
    description: "The unsigned serialized transaction's size, bytes (1–131,072); default 51, a plain transfer. Not with tx.",
    schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
    example: '113',
  },
  {
    name: 'tx',
    in: 'query',
    required: false,
    description:
      'The unsigned serialized transaction, 0x hex (viem serializeTransaction without a signature): the L1 fee is then exact on OP-stack chains and Mantle (as the oracle computes it) and on Scroll (its signed size compressed as the node does, where the zstd binding of the service loaded) (l1DataFeeBasis). Not with txBytes.',
    schema: { type: 'string', pattern: '^0x([0-9a-fA-F]{2})+$' },
  },
]

const STREAM_DESCRIPTION = `Server-Sent Events (text/event-stream). At once and on every new block, \`event: fees\` with \`id: <block number>\` and \`data:\` one line of JSON, a FeesEvent (the five fee endpoints' bodies for that block: suggestedGasFees, busyThreshold, baseFeePercentile, baseFeeHistory, baseFeeForecast). While the chain's node fails, one \`event: error\` per failure streak whose \`data:\` is an ErrorBody (502 or 503 as the REST endpoints would answer). \`: keep-alive\` comments every STREAM_HEARTBEAT_SECONDS; the stream opens with \`retry: 1000\` and ends after STREAM_MAX_SECONDS (reconnect then; an EventSource does so itself). The events' schemas are in the media type's \`x-sse-events\` (OpenAPI 3.1 has no keyword for a stream's items). Errors found before the stream opens (bad or unsupported chain, auth, limits) are plain JSON answers.`

/** The paths under /networks/{chainId}/ (tag fees), in the document's order. */
export function chainPaths(): Json {
  return {
    '/networks/{chainId}/suggestedGasFees': withQuery(
      chainEndpoint(
        'getSuggestedGasFees',
        'Fee suggestions for the low, medium and high urgency levels',
        "Max priority fee, max fee and wait range per level, the next base fee, congestion, tip and base-fee ranges and trends. The fast chains' own rules apply (docs/estimator.md's table): BSC and opBNB max fee = tip; Monad caps by its own base-fee rule, at least 100 gwei; Sonic max fee ≥ 1.10 × the base fee; Sei's floored at eth_gasPrice; Arbitrum tips 0 unless collected, max fee ≥ ArbGasInfo.getMinimumGasPrice(); HyperEVM tips 0 (lane=big: its big blocks).",
        'SuggestedGasFees',
      ),
      [LANE_QUERY],
    ),
    '/networks/{chainId}/busyThreshold': chainEndpoint(
      'getBusyThreshold',
      'The 90th-percentile base fee of the last 500 blocks',
      'Nearest-rank 90th percentile of baseFeeHistory.',
      'BusyThreshold',
    ),
    '/networks/{chainId}/baseFeePercentile': chainEndpoint(
      'getBaseFeePercentile',
      'The 50th-percentile base fee of the last 500 blocks',
      'Nearest-rank 50th percentile of baseFeeHistory.',
      'BaseFeePercentile',
    ),
    '/networks/{chainId}/baseFeeHistory': chainEndpoint(
      'getBaseFeeHistory',
      'The base fees of the last 500 blocks, oldest first',
      'Exactly 500 entries once the chain has 500 blocks.',
      'BaseFeeHistory',
    ),
    '/networks/{chainId}/baseFeeForecast': chainEndpoint(
      'getBaseFeeForecast',
      'The base fee of each of the next 10 blocks: p50, p90, p99 and the protocol bound',
      "Blocks head + 1 … head + 10 (head = X-Block-Number). k = 1 is the next block, known exactly (every quantile equals estimatedBaseFee), except on Monad, whose nodes repeat the head's base fee as the next: there block head + k is forecast k steps from the head. p50 ≤ p90 ≤ p99 ≤ bound; bound is the protocol's largest base fee (k − 1 largest rises from the next base fee; k from the head's on Monad), null on chains that enforce none. With under 64 base-fee steps in the window, or a base fee of 0, every quantile is that bound (the assumed one where the chain enforces none). The model: docs/estimator.md.",
      'BaseFeeForecast',
    ),
    '/networks/{chainId}/gasPrices': withQuery(
      chainEndpoint(
        'getGasPrices',
        'Legacy gas prices (SafeGasPrice, ProposeGasPrice, FastGasPrice)',
        "One gasPrice per level for a type-0 transaction, as MetaMask's GasFeeController reads from its legacyAPIEndpoint. Answers on every chain, including chains without EIP-1559 (where the other fee endpoints answer 400); 503 while the chain's recent blocks hold no priced transaction.",
        'GasPrices',
      ),
      [LANE_QUERY],
    ),
    '/networks/{chainId}/replacementFees': withQuery(
      chainEndpoint(
        'getReplacementFees',
        'The fees that replace a pending transaction (speed-up or cancel)',
        REPLACEMENT_DESCRIPTION,
        'ReplacementFees',
      ),
      Object.entries(REPLACEMENT_QUERY).map(([name, description]) => ({
        name,
        in: 'query',
        required: false,
        description,
        schema: { type: 'string', pattern: '^(0|[1-9][0-9]*)(\\.[0-9]{1,9})?$' },
        example: name === 'maxPriorityFeePerGas' ? '0.5' : '12.5',
      })),
    ),
    '/networks/{chainId}/transactionCost': withQuery(
      chainEndpoint(
        'getTransactionCost',
        "A transaction's whole cost per level, the L1 data fee and operator fee of L2s included",
        TRANSACTION_COST_DESCRIPTION,
        'TransactionCost',
      ),
      [...TRANSACTION_COST_QUERY, LANE_QUERY],
    ),
    '/networks/{chainId}/blobFees': chainEndpoint(
      'getBlobFees',
      'Blob fees (EIP-4844): the next blob base fee and a maxFeePerBlobGas per level',
      "On chains with blobs (400 elsewhere). estimatedBlobBaseFee is the next block's blob base fee as the node reports it; each level's suggestedMaxFeePerBlobGas is the blob base fee every block the level's promise reaches (the answer's age and its wait) stays under with the level's promise, sized by forecast (the blob base fee of the next 10 blocks as p50, p90, p99 and the protocol bound), at least one full block's rise, at most the protocol's bound; blobTarget and blobMax are the fork's active at the head; low ≤ medium ≤ high. Same window as the other endpoints. docs/api.md gives the forks and their sources.",
      'BlobFees',
    ),
    '/networks/{chainId}/accuracy': chainEndpoint(
      'getAccuracy',
      "The service's own accuracy over the window it serves",
      'Per level: the share of its suggestions included within the promised wait, the median wait and overpayment, judged as `npm run backtest` judges.',
      'AccuracyReport',
    ),
    '/networks/{chainId}/stream': {
      parameters: [ref('parameters', 'chainId')],
      get: {
        operationId: 'getStream',
        tags: ['fees'],
        summary: 'The five fee answers, pushed on every new block (Server-Sent Events)',
        description: STREAM_DESCRIPTION,
        responses: {
          '200': {
            description: 'OK: the event stream.',
            headers: headers(['X-Chain-Id', 'Cache-Control'], RATE_LIMIT_HEADERS),
            content: {
              'text/event-stream': {
                schema: { type: 'string', description: 'A stream of `fees` and `error` events (see the operation description).' },
                'x-sse-events': { fees: schemaRef('FeesEvent'), error: schemaRef('ErrorBody') },
              },
            },
          },
          ...errors('BadRequest', ...API_ERRORS),
        },
      },
      ...readOnlyMethods('fees'),
    },
  }
}
