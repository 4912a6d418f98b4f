// The chain page's cost panel (app/_components/cost-panel.tsx), rendered to markup: which costs it shows, in
// which token, and what it says about the fee beside gas, per rollup family (issue 41).
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { CostPanel } from '@/app/_components/cost-panel'
import { chargesBeyondGas, wholeCostDiffers } from '@/app/_components/costs'
import type { SuggestedGasFees, TransactionCostBody } from '@/lib/core/contract/schemas'

const level = (tip: string, max: string) => ({
  suggestedMaxPriorityFeePerGas: tip,
  suggestedMaxFeePerGas: max,
  minWaitTimeEstimate: 0,
  maxWaitTimeEstimate: 0,
})
const FEES = { low: level('1', '30'), medium: level('2', '40'), high: level('3', '50'), estimatedBaseFee: '20' } as SuggestedGasFees

/** One transactionCost answer for every action, with the given top-level fields. */
function answers(fields: Partial<TransactionCostBody>): Record<'transfer' | 'erc20' | 'swap', TransactionCostBody> {
  const lvl = {
    fee: '1000000',
    maxFee: '2000000',
    maxPriorityFeePerGas: '0.05',
    maxFeePerGas: '0.06',
    minWaitTimeEstimate: 2000,
    maxWaitTimeEstimate: 6000,
  }
  const body: TransactionCostBody = {
    blockNumber: 9,
    gas: 21_000,
    txBytes: 51,
    nativeToken: 'ETH',
    l1DataFee: '0',
    l1DataFeeBasis: 'exact',
    operatorFee: '0',
    priorityFeeFloor: null,
    low: lvl,
    medium: lvl,
    high: lvl,
    ...fields,
  }
  return { transfer: body, erc20: body, swap: body }
}

const render = (whole?: ReturnType<typeof answers>, symbol = 'ETH') =>
  renderToStaticMarkup(createElement(CostPanel, { fees: FEES, currency: { symbol, decimals: 18 }, whole }))

describe('wholeCostDiffers', () => {
  test.each([
    ['OP-stack: an L1 data fee', { l1DataFee: '0.0001' }, true],
    ['Mantle: an operator fee', { operatorFee: '1256650673.61517386' }, true],
    ['Linea: a tip floor of its own', { priorityFeeFloor: '0.041903993' }, true],
    ['zkSync Era: nothing beside gas', {}, false],
    ['an L1: nothing beside gas', {}, false],
    ['Metis: an unknown fee', { l1DataFee: null, l1DataFeeBasis: null, operatorFee: null }, false],
  ] as const)('default: %s: %s', (_, fields, differs) => {
    expect(wholeCostDiffers(answers(fields).transfer)).toBe(differs)
    if (!('priorityFeeFloor' in fields)) expect(chargesBeyondGas(answers(fields).transfer)).toBe(differs)
  })
})

describe('CostPanel', () => {
  test("default: Mantle's whole cost in MNT, the L1 fee as a bound and the operator fee apart", () => {
    const html = render(
      answers({ nativeToken: 'MNT', l1DataFee: '3203', l1DataFeeBasis: 'upperBound', operatorFee: '1256650673.61517386' }),
      'MNT',
    )
    expect(html).toContain('data-token="MNT"')
    // 1,000,000 gwei = 0.001 MNT, the answer's fee, not gas × the suggested fees
    expect(html).toContain('0.001 MNT')
    expect(html).not.toContain(' ETH')
    expect(html).toContain('Includes the L1 data fee of at most')
    expect(html).toContain('and the operator fee')
  })

  test("behavior: the answer's token wins over the page's guess", () => {
    const html = render(answers({ nativeToken: 'MNT', operatorFee: '1' }), 'native token')
    expect(html).toContain('data-token="MNT"')
    expect(html).not.toContain('native token')
  })

  test("behavior: Linea: the answer's costs, and the data cost said to ride in the tip with its floor", () => {
    const html = render(answers({ priorityFeeFloor: '0.098208' }))
    expect(html).toContain('rides in the tip')
    expect(html).toContain('data-testid="cost-transfer-tip-floor"')
    expect(html).toContain('data-value="0.098208"')
    expect(html).toContain('data-value="1000000000000000"')
  })

  test('behavior: without whole costs, gas × the suggested fees; an unknown L1 fee is said to be left out', () => {
    expect(render()).toContain(`data-value="${21_000n * 21_000_000_000n}"`)
    expect(render(answers({ l1DataFee: null, l1DataFeeBasis: null, operatorFee: null }))).toContain('Leaves out the L1 data fee')
  })
})
