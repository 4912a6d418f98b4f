import { mkdirSync } from 'node:fs'
import type { TransactionCostBody } from '@/lib/core/contract/schemas'
import { parseGwei } from '@/lib/core/units'
import { apiGet, expect, test } from './fixtures'

const SHOTS = 'test-results/screenshots'

test.describe('costs panel on an OP-stack chain (8453)', () => {
  test("each action's likely and max cost include the L1 data fee and the operator fee, as GET transactionCost answers them", async ({
    page,
  }) => {
    await page.goto('/networks/8453')
    const transfer = page.getByTestId('cost-transfer')
    await expect(transfer).toHaveAttribute('data-l1', /^[1-9][0-9]*$/)
    await expect(page.getByTestId('cost-transfer-beyond-gas')).toContainText('L1 data fee')
    for (const action of ['transfer', 'erc20', 'swap']) {
      const card = page.getByTestId(`cost-${action}`)
      const attr = (name: string) => card.evaluate((el, n) => el.getAttribute(n) ?? '', name)
      const gas = await attr('data-gas')
      const txBytes = await attr('data-tx-bytes')
      const block = await attr('data-block')
      const l1 = await attr('data-l1')
      const operator = await attr('data-operator')
      const api = await apiGet<TransactionCostBody>(`/networks/8453/transactionCost?gas=${gas}&txBytes=${txBytes}`)
      // the fake chain's head does not move: the page and the API speak of one block
      expect(Number(block)).toBe(api.block)
      expect(l1).toBe(parseGwei(api.body.l1DataFee!).toString())
      expect(operator).toBe(parseGwei(api.body.operatorFee!).toString())
      expect(BigInt(l1) > 0n && BigInt(operator) > 0n).toBe(true)
      for (const level of ['low', 'medium', 'high'] as const) {
        const cell = page.getByTestId(`cost-${action}-${level}`)
        await expect(cell).toHaveAttribute('data-value', parseGwei(api.body[level].fee).toString())
        await expect(cell).toHaveAttribute('data-max', parseGwei(api.body[level].maxFee).toString())
      }
    }
    mkdirSync(SHOTS, { recursive: true })
    await page
      .getByTestId('cost-transfer')
      .locator('xpath=ancestor::section')
      .screenshot({ path: `${SHOTS}/l2-costs-8453.png` })
  })

  test('the panel reads the whole costs again every L1 slot (12 s), however often the page renders meanwhile', async ({ page }) => {
    const asked: number[] = []
    page.on('request', (r) => {
      if (r.url().includes('/transactionCost?')) asked.push(Date.now())
    })
    await page.goto('/networks/8453')
    await expect(page.getByTestId('cost-transfer')).toHaveAttribute('data-l1', /^[1-9][0-9]*$/)
    // three actions a round: a second round within a slot and a wide margin (the age on the page renders every second)
    await expect.poll(() => asked.length, { timeout: 45_000 }).toBeGreaterThanOrEqual(6)
  })
})
