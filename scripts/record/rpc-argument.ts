import { ConfigError, RpcUrlListSchema, type EnvSource } from '../../lib/env'

/**
 * The recorder's `--rpc` value: a URL, or the name of an `RPC_URL_<chainId>` variable holding one
 * (its first URL). With the name, the URL never appears on the command line, which `npm run` echoes.
 * @throws ConfigError naming the variable when it is unset or not a list of http(s) URLs
 */
export function resolveRpcArgument(value: string, source: EnvSource = process.env): string {
  if (!/^RPC_URL_\d+$/.test(value)) return value
  const result = RpcUrlListSchema.safeParse(source[value] ?? '')
  if (!result.success || result.data[0] === undefined) throw new ConfigError(`${value} is not set to an http(s) URL`)
  return result.data[0]
}
