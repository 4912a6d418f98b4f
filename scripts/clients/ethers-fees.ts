import { FetchUrlFeeDataNetworkPlugin, Network, parseUnits } from 'ethers'

/** Where the Gas API is and the API key to ask it with. */
export type GasApi = { url: string; apiKey: string; apiSecret: string }

/** HTTP Basic credentials (RFC 7617, UTF-8): `Basic base64(key:secret)`. */
export const basicAuth = (apiKey: string, apiSecret: string) =>
  `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${apiKey}:${apiSecret}`)))}`

/**
 * The network of `chainId` with its fee data taken from the Gas API's medium level (GET
 * /networks/{chainId}/suggestedGasFees), in wei: ethers' provider.getFeeData() returns it, and a
 * transaction a Wallet populates without fees gets it. gasPrice is the next base fee plus the medium
 * tip, as GET gasPrices answers.
 */
export function gasApiNetwork(chainId: number, gasApi: GasApi): Network {
  const url = `${gasApi.url}/networks/${chainId}/suggestedGasFees`
  return Network.from(chainId).attachPlugin(
    new FetchUrlFeeDataNetworkPlugin(url, async (_fetchFeeData, _provider, request) => {
      request.setHeader('authorization', basicAuth(gasApi.apiKey, gasApi.apiSecret))
      const response = await request.send()
      response.assertOk()
      const { medium, estimatedBaseFee } = response.bodyJson
      const maxPriorityFeePerGas = parseUnits(medium.suggestedMaxPriorityFeePerGas, 'gwei')
      return {
        gasPrice: parseUnits(estimatedBaseFee, 'gwei') + maxPriorityFeePerGas,
        maxFeePerGas: parseUnits(medium.suggestedMaxFeePerGas, 'gwei'),
        maxPriorityFeePerGas,
      }
    }),
  )
}
