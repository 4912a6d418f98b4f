import { defineChain, parseGwei, type Chain } from 'viem'

/** Where the Gas API is and the API key to ask it with. */
export type GasApi = { url: string; apiKey: string; apiSecret: string }

/** HTTP Basic credentials (RFC 7617, UTF-8): `Basic base64(key:secret)`. */
export const basicAuth = (apiKey: string, apiSecret: string) =>
  `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${apiKey}:${apiSecret}`)))}`

/**
 * `chain`, with its fees taken from the Gas API's medium level (GET /networks/{chainId}/suggestedGasFees),
 * in wei: viem's estimateFeesPerGas returns them, and a transaction prepared without fees gets them. A
 * legacy transaction gets the next base fee plus the medium tip, as GET gasPrices answers.
 */
export function withGasApiFees<const chain extends Chain>(chain: chain, gasApi: GasApi) {
  const medium = async () => {
    const res = await fetch(`${gasApi.url}/networks/${chain.id}/suggestedGasFees`, {
      headers: { authorization: basicAuth(gasApi.apiKey, gasApi.apiSecret) },
    })
    const body = await res.json()
    if (!res.ok) throw new Error(`Gas API: ${res.status} ${body.message}`)
    const maxPriorityFeePerGas = parseGwei(body.medium.suggestedMaxPriorityFeePerGas)
    return {
      maxFeePerGas: parseGwei(body.medium.suggestedMaxFeePerGas),
      maxPriorityFeePerGas,
      gasPrice: parseGwei(body.estimatedBaseFee) + maxPriorityFeePerGas,
    }
  }
  return defineChain({
    ...chain,
    fees: {
      ...chain.fees,
      async estimateFeesPerGas({ type }) {
        const { gasPrice, ...fees } = await medium()
        return type === 'legacy' ? { gasPrice } : fees
      },
    },
    // viem asks the node to fill a transaction (eth_fillTransaction, fees included) before it would ask
    // fees.estimateFeesPerGas: a request without fees gets the Gas API's first
    prepareTransactionRequest: [
      async (request) => {
        if (request.gasPrice !== undefined || request.maxFeePerGas !== undefined || request.maxPriorityFeePerGas !== undefined) {
          return request
        }
        const { gasPrice, ...fees } = await medium()
        return request.type === 'legacy' || request.type === 'eip2930' ? { ...request, gasPrice } : { ...request, ...fees }
      },
      { runAt: ['beforeFillTransaction'] },
    ],
  })
}
