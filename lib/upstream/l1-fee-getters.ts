import 'server-only'
import { parseAbi, type Address } from 'viem'
import type { L1FeeParams, L1FeeRule } from '../core/types'
import { blockNumberCall, type ViewCall } from './multicall3'

/**
 * Which getters each L1 fee rule reads, and the parameters their values make. The getters are the predeploys'
 * public ones, as wallets and viem read them (storage layouts change between upgrades); a getter that reverts
 * before its fork means that fork is not active.
 */

/** The rules whose parameters come from predeploys (Linea's come from the head block's extraData). */
export type PredeployRule = Exclude<L1FeeRule, 'linea'>

// OP-stack predeploys (ethereum-optimism/optimism packages/contracts-bedrock src/libraries/Predeploys.sol); Mantle's are at the same addresses
const GAS_PRICE_ORACLE = '0x420000000000000000000000000000000000000F'
const L1_BLOCK = '0x4200000000000000000000000000000000000015'
// Arbitrum's precompiles (nitro-precompile-interfaces ArbGasInfo.sol, ArbSys.sol)
const ARB_GAS_INFO = '0x000000000000000000000000000000000000006C'
const ARB_SYS = '0x0000000000000000000000000000000000000064'
const ARB_OWNER_PUBLIC = '0x000000000000000000000000000000000000006b'
// Scroll's L1GasPriceOracle predeploy (scroll-tech/scroll-contracts src/L2/predeploys/L1GasPriceOracle.sol)
const SCROLL_ORACLE = '0x5300000000000000000000000000000000000002'

const abi = parseAbi([
  // OP-stack GasPriceOracle; Mantle's (mantlenetworkio/mantle-v2 contracts-bedrock src/L2/GasPriceOracle.sol) has
  // the same Fjord getters, with tokenRatio and isArsia instead of the fork flags
  'function l1BaseFee() view returns (uint256)',
  'function blobBaseFee() view returns (uint256)',
  'function baseFeeScalar() view returns (uint32)',
  'function blobBaseFeeScalar() view returns (uint32)',
  'function isFjord() view returns (bool)',
  'function isIsthmus() view returns (bool)',
  'function isJovian() view returns (bool)',
  'function tokenRatio() view returns (uint256)',
  'function isArsia() view returns (bool)',
  // L1Block (Isthmus and later; Mantle's since Arsia): what GasPriceOracle.getOperatorFee reads
  'function operatorFeeScalar() view returns (uint32)',
  'function operatorFeeConstant() view returns (uint64)',
  // Arbitrum
  'function getPricesInWei() view returns (uint256, uint256, uint256, uint256, uint256, uint256)',
  'function arbBlockNumber() view returns (uint256)',
  // the fee rules of Arbitrum's row (nitro ArbGasInfo.sol; ArbOwnerPublic.sol since ArbOS 60: reverts before, so not collected)
  'function getMinimumGasPrice() view returns (uint256)',
  'function getCollectTips() view returns (bool)',
  // Scroll's L1GasPriceOracle
  'function l1BlobBaseFee() view returns (uint256)',
  'function commitScalar() view returns (uint256)',
  'function blobScalar() view returns (uint256)',
  'function penaltyFactor() view returns (uint256)',
  'function isGalileo() view returns (bool)',
])
type Getter = (typeof abi)[number]['name']
const getter = (to: Address, functionName: Getter): ViewCall => ({ to, abi, functionName })

/**
 * The getter of the number of the block a read at the predicted head ran at: Multicall3.getBlockNumber(), except on Arbitrum,
 * whose block.number is an L1 block number (docs.arbitrum.io "Block numbers and time"): ArbSys.arbBlockNumber().
 */
export function headProbe(rule: PredeployRule, chainId: number): ViewCall {
  return rule === 'arbitrum' ? getter(ARB_SYS, 'arbBlockNumber') : blockNumberCall(chainId)
}

/** The rule's getters, by name. `previous`: the last read's parameters, whose active forks are not asked again (a fork never ends). */
export function l1FeeGetters(rule: PredeployRule, previous?: L1FeeParams): Record<string, ViewCall> {
  switch (rule) {
    case 'arbitrum':
      return {
        prices: getter(ARB_GAS_INFO, 'getPricesInWei'),
        minimumGasPrice: getter(ARB_GAS_INFO, 'getMinimumGasPrice'),
        collectTips: getter(ARB_OWNER_PUBLIC, 'getCollectTips'),
      }
    case 'scroll':
      return {
        l1BaseFee: getter(SCROLL_ORACLE, 'l1BaseFee'),
        l1BlobBaseFee: getter(SCROLL_ORACLE, 'l1BlobBaseFee'),
        commitScalar: getter(SCROLL_ORACLE, 'commitScalar'),
        blobScalar: getter(SCROLL_ORACLE, 'blobScalar'),
        penaltyFactor: getter(SCROLL_ORACLE, 'penaltyFactor'),
        ...(previous?.rule === 'scroll' ? {} : { isGalileo: getter(SCROLL_ORACLE, 'isGalileo') }),
      }
    case 'mantle':
      return {
        ...fjordGetters(),
        tokenRatio: getter(GAS_PRICE_ORACLE, 'tokenRatio'),
        ...(previous?.rule === 'mantle' ? {} : { isArsia: getter(GAS_PRICE_ORACLE, 'isArsia') }),
        ...operatorFeeGetters(),
      }
    case 'op-stack': {
      const known = previous?.rule === 'op-stack' ? previous : undefined
      return {
        ...fjordGetters(),
        ...(known ? {} : { isFjord: getter(GAS_PRICE_ORACLE, 'isFjord') }),
        ...(known?.isthmus ? {} : { isIsthmus: getter(GAS_PRICE_ORACLE, 'isIsthmus') }),
        ...(known?.jovian ? {} : { isJovian: getter(GAS_PRICE_ORACLE, 'isJovian') }),
        ...operatorFeeGetters(),
      }
    }
  }
}

const fjordGetters = () => ({
  l1BaseFee: getter(GAS_PRICE_ORACLE, 'l1BaseFee'),
  blobBaseFee: getter(GAS_PRICE_ORACLE, 'blobBaseFee'),
  baseFeeScalar: getter(GAS_PRICE_ORACLE, 'baseFeeScalar'),
  blobBaseFeeScalar: getter(GAS_PRICE_ORACLE, 'blobBaseFeeScalar'),
})
const operatorFeeGetters = () => ({
  operatorFeeScalar: getter(L1_BLOCK, 'operatorFeeScalar'),
  operatorFeeConstant: getter(L1_BLOCK, 'operatorFeeConstant'),
})

const isUint = (v: unknown): v is bigint => typeof v === 'bigint' && v >= 0n
const isUint32 = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0
const unavailable = (reason: string): L1FeeParams => ({ rule: 'unavailable', reason })

/**
 * The parameters the getters' values make (`values`: by name, undefined where a getter failed), or
 * `unavailable` when the chain is before the fork the rule needs or its getters did not answer.
 */
export function l1FeeParamsOf(rule: PredeployRule, values: Record<string, unknown>, previous?: L1FeeParams): L1FeeParams {
  const v = values
  switch (rule) {
    case 'arbitrum': {
      const perByte = Array.isArray(v.prices) ? (v.prices as unknown[])[1] : undefined
      if (!isUint(perByte)) return unavailable('ArbGasInfo.getPricesInWei did not answer')
      return {
        rule: 'arbitrum',
        perL1CalldataByte: perByte.toString(),
        ...(isUint(v.minimumGasPrice) ? { minimumGasPrice: v.minimumGasPrice.toString() } : {}),
        ...(v.collectTips === true ? { collectTips: true } : {}),
      }
    }
    case 'scroll': {
      if (previous?.rule !== 'scroll' && v.isGalileo !== true) return unavailable('L1GasPriceOracle does not report Galileo')
      const { l1BaseFee, l1BlobBaseFee, commitScalar, blobScalar, penaltyFactor } = v
      if (!isUint(l1BaseFee) || !isUint(l1BlobBaseFee) || !isUint(commitScalar) || !isUint(blobScalar) || !isUint(penaltyFactor)) {
        return unavailable("L1GasPriceOracle's Galileo getters did not answer")
      }
      return {
        rule: 'scroll',
        l1BaseFee: l1BaseFee.toString(),
        l1BlobBaseFee: l1BlobBaseFee.toString(),
        commitScalar: commitScalar.toString(),
        blobScalar: blobScalar.toString(),
        penaltyFactor: penaltyFactor.toString(),
      }
    }
    case 'mantle': {
      if (previous?.rule !== 'mantle' && v.isArsia !== true) return unavailable('GasPriceOracle does not report Arsia')
      const fjord = fjordOf(v)
      if (fjord === undefined || !isUint(v.tokenRatio)) return unavailable("GasPriceOracle's Arsia getters did not answer")
      if (!isUint32(v.operatorFeeScalar) || !isUint(v.operatorFeeConstant))
        return unavailable("L1Block's operator fee getters did not answer")
      return {
        rule: 'mantle',
        ...fjord,
        tokenRatio: v.tokenRatio.toString(),
        operatorFeeScalar: v.operatorFeeScalar,
        operatorFeeConstant: v.operatorFeeConstant.toString(),
      }
    }
    case 'op-stack': {
      const known = previous?.rule === 'op-stack' ? previous : undefined
      if (!known && v.isFjord !== true) return unavailable('GasPriceOracle does not report Fjord')
      const fjord = fjordOf(v)
      if (fjord === undefined) return unavailable("GasPriceOracle's Fjord getters did not answer")
      const isthmus = known?.isthmus === true || v.isIsthmus === true
      const jovian = isthmus && (known?.jovian === true || v.isJovian === true)
      if (isthmus && (!isUint32(v.operatorFeeScalar) || !isUint(v.operatorFeeConstant))) {
        return unavailable("L1Block's operator fee getters did not answer")
      }
      return {
        rule: 'op-stack',
        ...fjord,
        isthmus,
        jovian,
        operatorFeeScalar: isthmus ? (v.operatorFeeScalar as number) : 0,
        operatorFeeConstant: isthmus ? (v.operatorFeeConstant as bigint).toString() : '0',
      }
    }
  }
}

function fjordOf(v: Record<string, unknown>) {
  const { l1BaseFee, blobBaseFee, baseFeeScalar, blobBaseFeeScalar } = v
  if (!isUint(l1BaseFee) || !isUint(blobBaseFee) || !isUint32(baseFeeScalar) || !isUint32(blobBaseFeeScalar)) return undefined
  return { l1BaseFee: l1BaseFee.toString(), blobBaseFee: blobBaseFee.toString(), baseFeeScalar, blobBaseFeeScalar }
}
