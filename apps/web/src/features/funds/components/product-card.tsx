import type { FundProduct } from '@meridian/contracts/funds';
import { Button, Card, Descriptions, Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { isPositive, percent } from '../lib/format.ts';
import { rateMillionths } from '../lib/interest.ts';
import { RateTierTable } from './rate-tier-table.tsx';
import { money } from '../../../lib/money.ts';

export interface ProductCardProps {
  product: FundProduct;
  onSubscribe: (product: FundProduct) => void;
  onRedeem: (product: FundProduct) => void;
}

/** The term of a product: "Flexible" for the current fund (period -1), else its days. */
export function usePeriodLabel() {
  const { t } = useTranslation('funds');
  return (period: number) => (period < 0 ? t('product.flexible') : t('product.days', { count: period }));
}

/**
 * One fund on the earn page and its detail: rate (with the tier table when the rate
 * is tiered), term, raise window, interest start and maturity of a fixed fund, the caller's holding,
 * and Subscribe / Redeem.
 */
export function ProductCard({ product, onSubscribe, onRedeem }: ProductCardProps) {
  const { t } = useTranslation('funds');
  const periodLabel = usePeriodLabel();
  const isCurrent = product.type === 'CURRENT';
  const hasTiers = product.rateTiers.length > 1;
  const topRate = product.rateTiers.reduce(
    (top, tier) => ((rateMillionths(tier.annualRate) ?? 0n) > (rateMillionths(top) ?? 0n) ? tier.annualRate : top),
    product.annualRate,
  );
  return (
    <Card className="fund-card" data-testid={`fund-product-${product.productId}`}>
      <Flex justify="space-between" align="start" gap={12} wrap>
        <div>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {product.productName}
          </Typography.Title>
          <Flex gap={6} style={{ marginTop: 6 }} wrap>
            <Tag color={isCurrent ? 'cyan' : 'geekblue'}>{t(`type.${product.type}`)}</Tag>
            <Tag>{periodLabel(product.period)}</Tag>
            {!isCurrent && !product.subscribe && <Tag color="default">{t('product.closed')}</Tag>}
          </Flex>
        </div>
        <div className="fund-card__rate">
          <strong data-testid="fund-rate">{percent(hasTiers ? topRate : product.annualRate)}</strong>
          <span>{hasTiers ? t('product.rateUpTo') : t('product.rate')}</span>
        </div>
      </Flex>
      <Descriptions size="small" column={1} style={{ marginTop: 16 }}>
        {product.raiseDate && (
          <Descriptions.Item label={t('product.raiseWindow')}>
            {t('product.window', { from: product.raiseDate[0], to: product.raiseDate[1] })}
          </Descriptions.Item>
        )}
        <Descriptions.Item label={t('product.interestStart')}>
          {product.interestDate ?? t('product.interestNextDay')}
        </Descriptions.Item>
        {product.maturityDate && (
          <Descriptions.Item label={t('product.maturity')}>{product.maturityDate}</Descriptions.Item>
        )}
        <Descriptions.Item label={t('product.payout')}>
          {isCurrent ? t('product.payoutMonthly') : t('product.payoutMaturity')}
        </Descriptions.Item>
        {isPositive(product.holdingShares) && (
          <Descriptions.Item label={t('product.holding')}>
            <span data-testid="fund-holding">{money(product.holdingShares, 'USD')}</span>
          </Descriptions.Item>
        )}
      </Descriptions>
      {hasTiers && <RateTierTable tiers={product.rateTiers} />}
      <Flex gap={8} style={{ marginTop: 16 }} wrap>
        <Button
          type="primary"
          disabled={!product.subscribe}
          onClick={() => onSubscribe(product)}
          data-testid="fund-subscribe"
        >
          {t('actions.subscribe')}
        </Button>
        {product.redeem && isPositive(product.holdingShares) && (
          <Button onClick={() => onRedeem(product)} data-testid="fund-redeem">
            {t('actions.redeem')}
          </Button>
        )}
      </Flex>
    </Card>
  );
}
