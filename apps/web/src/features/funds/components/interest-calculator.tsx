import type { FundProduct } from '@meridian/contracts/funds';
import { Card, Col, Form, Input, InputNumber, Row, Select, Statistic, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkFundAmount } from '../lib/amount-rules.ts';
import { percent, usdOfE8 } from '../lib/format.ts';
import { expectedInterest, tiersOf } from '../lib/interest.ts';
import { money } from '../../../lib/money.ts';

/** Days the calculator starts with for the current fund, and the most it takes. */
const CURRENT_DAYS_DEFAULT = 30;
const DAYS_MAX = 3650;

/**
 * The calculator of expected interest: a product, an amount in USD and, for the
 * current fund, a number of days (a fixed fund's term is its period). Shows amount × rate × days /
 * 365 the way the server accrues it: each day's interest rounded down to the cent, tier by tier.
 */
export function InterestCalculator({ products }: { products: readonly FundProduct[] }) {
  const { t } = useTranslation('funds');
  const [productId, setProductId] = useState(products[0]?.productId);
  const [amount, setAmount] = useState('10000');
  const [currentDays, setCurrentDays] = useState(CURRENT_DAYS_DEFAULT);
  const product = products.find((p) => p.productId === productId) ?? products[0];
  if (!product) return null;
  const days = product.period > 0 ? product.period : currentDays;
  const problem = amount.trim() === '' ? null : checkFundAmount(amount, {});
  const result = problem ? null : expectedInterest(amount, tiersOf(product), days);

  return (
    <Card data-testid="interest-calculator">
      <Row gutter={[24, 16]}>
        <Col xs={24} md={14}>
          <Form layout="vertical" requiredMark={false}>
            {/* Items without a `name` link label and control through htmlFor/id (axe: label). */}
            <Form.Item label={t('calculator.product')} htmlFor="interest-calc-product">
              <Select
                id="interest-calc-product"
                value={product.productId}
                onChange={setProductId}
                data-testid="calculator-product"
                options={products.map((p) => ({
                  value: p.productId,
                  label: `${p.productName} · ${percent(p.annualRate)}`,
                }))}
              />
            </Form.Item>
            <Form.Item
              label={t('calculator.amount')}
              htmlFor="interest-calc-amount"
              validateStatus={problem ? 'error' : undefined}
              help={problem ? t(`rules.${problem.key}`, problem) : undefined}
            >
              <Input
                id="interest-calc-amount"
                value={amount}
                onChange={(event) => setAmount(event.target.value)}
                inputMode="decimal"
                suffix="USD"
                data-testid="calculator-amount"
              />
            </Form.Item>
            <Form.Item label={t('calculator.days')} htmlFor={product.period > 0 ? undefined : 'interest-calc-days'}>
              {product.period > 0 ? (
                <Typography.Text data-testid="calculator-days">
                  {t('product.days', { count: product.period })}
                </Typography.Text>
              ) : (
                <InputNumber
                  id="interest-calc-days"
                  min={1}
                  max={DAYS_MAX}
                  precision={0}
                  value={currentDays}
                  onChange={(value) => setCurrentDays(value ?? CURRENT_DAYS_DEFAULT)}
                  style={{ width: '100%' }}
                  data-testid="calculator-days"
                />
              )}
            </Form.Item>
          </Form>
        </Col>
        <Col xs={24} md={10}>
          <Statistic
            title={t('calculator.total', { count: days })}
            value={result ? money(result.totalMinor, 'USD') : '—'}
            data-testid="calculator-total"
          />
          <Statistic
            title={t('calculator.daily')}
            value={result ? usdOfE8(result.dailyE8) : '—'}
            suffix="USD"
            style={{ marginTop: 16 }}
          />
          <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }}>
            {t('calculator.note')}
          </Typography.Paragraph>
        </Col>
      </Row>
    </Card>
  );
}
