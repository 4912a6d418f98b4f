import 'server-only'
import { decodeFunctionResult, encodeFunctionData, parseAbi, type Abi, type Client, type Hex } from 'viem'
import type { L1FeeParams, L1FeeRule } from '../core/types'

// OP-stack predeploys (ethereum-optimism/optimism packages/contracts-bedrock src/libraries/Predeploys.sol)
const GAS_PRICE_ORACLE = '0x420000000000000000000000000000000000000F'
const L1_BLOCK = '0x4200000000000000000000000000000000000015'
// Arbitrum's ArbGasInfo precompile (nitro-precompile-interfaces ArbGasInfo.sol)
const ARB_GAS_INFO = '0x000000000000000000000000000000000000006C'

const GAS_PRICE_ORACLE_ABI = parseAbi([
  'function l1BaseFee() view returns (uint256)',
  'function blobBaseFee() view returns (uint256)',
  'function baseFeeScalar() view returns (uint32)',
  'function blobBaseFeeScalar() view returns (uint32)',
  'function isFjord() view returns (bool)',
  'function isIsthmus() view returns (bool)',
  'function isJovian() view returns (bool)',
])
// GasPriceOracle.getOperatorFee reads these from L1Block (Isthmus and later)
const L1_BLOCK_ABI = parseAbi([
  'function operatorFeeScalar() view returns (uint32)',
  'function operatorFeeConstant() view returns (uint64)',
])
const ARB_GAS_INFO_ABI = parseAbi(['function getPricesInWei() view returns (uint256, uint256, uint256, uint256, uint256, uint256)'])

/** One view call at the head; undefined when the node answers with an error (a revert: the getter does not exist yet). */
async function call(client: Client, to: Hex, abi: Abi, name: string): Promise<unknown> {
  const data = encodeFunctionData({ abi, functionName: name })
  try {
    const raw = (await client.request({ method: 'eth_call', params: [{ to, data }, 'latest'] })) as Hex
    return decodeFunctionResult({ abi, functionName: name, data: raw })
  } catch {
    return undefined
  }
}

const isUint = (v: unknown): v is bigint => typeof v === 'bigint' && v >= 0n

/**
 * The L1 fee parameters at the chain's head, through the predeploys' public getters (as wallets and
 * viem read them; storage layouts change between upgrades). Every call is made at once, so they leave
 * in the same JSON-RPC batch as the rest of the window's read: no round of their own. A getter that
 * reverts before its fork means that fork is not active (no operator fee before Isthmus); the chain
 * is `unavailable` when the Fjord inputs are missing (a chain before Fjord, or not what it says).
 * `previous`: the last read's parameters, whose active forks are not asked again (a fork never ends).
 */
export async function readL1FeeParams(client: Client, rule: L1FeeRule, previous?: L1FeeParams): Promise<L1FeeParams> {
  if (rule === 'arbitrum') {
    const prices = await call(client, ARB_GAS_INFO, ARB_GAS_INFO_ABI, 'getPricesInWei')
    const perByte = Array.isArray(prices) ? prices[1] : undefined
    return isUint(perByte)
      ? { rule: 'arbitrum', perL1CalldataByte: perByte.toString() }
      : { rule: 'unavailable', reason: 'ArbGasInfo.getPricesInWei did not answer' }
  }
  const known = previous?.rule === 'op-stack' ? previous : undefined
  const [l1BaseFee, blobBaseFee, baseFeeScalar, blobBaseFeeScalar, fjord, isthmus, jovian, opScalar, opConstant] = await Promise.all([
    call(client, GAS_PRICE_ORACLE, GAS_PRICE_ORACLE_ABI, 'l1BaseFee'),
    call(client, GAS_PRICE_ORACLE, GAS_PRICE_ORACLE_ABI, 'blobBaseFee'),
    call(client, GAS_PRICE_ORACLE, GAS_PRICE_ORACLE_ABI, 'baseFeeScalar'),
    call(client, GAS_PRICE_ORACLE, GAS_PRICE_ORACLE_ABI, 'blobBaseFeeScalar'),
    // a fork once active stays active: the previous read's flags are not asked again
    known?.rule === 'op-stack' ? true : call(client, GAS_PRICE_ORACLE, GAS_PRICE_ORACLE_ABI, 'isFjord'),
    known?.isthmus ? true : call(client, GAS_PRICE_ORACLE, GAS_PRICE_ORACLE_ABI, 'isIsthmus'),
    known?.jovian ? true : call(client, GAS_PRICE_ORACLE, GAS_PRICE_ORACLE_ABI, 'isJovian'),
    call(client, L1_BLOCK, L1_BLOCK_ABI, 'operatorFeeScalar'),
    call(client, L1_BLOCK, L1_BLOCK_ABI, 'operatorFeeConstant'),
  ])
  if (fjord !== true) return { rule: 'unavailable', reason: 'GasPriceOracle does not report Fjord' }
  if (!isUint(l1BaseFee) || !isUint(blobBaseFee) || typeof baseFeeScalar !== 'number' || typeof blobBaseFeeScalar !== 'number') {
    return { rule: 'unavailable', reason: "GasPriceOracle's Fjord getters did not answer" }
  }
  const operator = isthmus === true
  if (operator && (typeof opScalar !== 'number' || !isUint(opConstant))) {
    return { rule: 'unavailable', reason: "L1Block's operator fee getters did not answer" }
  }
  return {
    rule: 'op-stack',
    l1BaseFee: l1BaseFee.toString(),
    blobBaseFee: blobBaseFee.toString(),
    baseFeeScalar,
    blobBaseFeeScalar,
    isthmus: operator,
    jovian: operator && jovian === true,
    operatorFeeScalar: operator ? (opScalar as number) : 0,
    operatorFeeConstant: operator ? (opConstant as bigint).toString() : '0',
  }
}
