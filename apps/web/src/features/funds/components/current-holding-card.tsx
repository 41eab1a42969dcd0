import type { FundAsset, FundProduct } from '@meridian/contracts/funds';
import { Button, Card, Descriptions, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { money } from '../../../lib/money.ts';
import { isPositive, percent } from '../lib/format.ts';

/** Props of {@link CurrentHoldingCard}. */
export interface CurrentHoldingCardProps {
  /** The caller's current-fund holding (shares in USD). */
  holding: FundAsset['currentProduct'];
  /** The current fund product; the actions and the rate show only once it is known. */
  product: FundProduct | undefined;
  onSubscribe: (product: FundProduct) => void;
  onRedeem: (product: FundProduct) => void;
}

/** The fund account's current holding: usable and unusable shares, the rate, unpaid interest, Subscribe / Redeem. */
export function CurrentHoldingCard({ holding, product, onSubscribe, onRedeem }: CurrentHoldingCardProps) {
  const { t } = useTranslation('funds');
  return (
    <Card
      title={t('account.current')}
      extra={
        product && (
          <Flex gap={8}>
            <Button type="primary" size="small" onClick={() => onSubscribe(product)} data-testid="account-subscribe">
              {t('actions.subscribe')}
            </Button>
            <Button
              size="small"
              disabled={!isPositive(holding.usableShares)}
              onClick={() => onRedeem(product)}
              data-testid="account-redeem"
            >
              {t('actions.redeem')}
            </Button>
          </Flex>
        )
      }
    >
      <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }} data-testid="fund-current">
        <Descriptions.Item label={t('account.usableShares')}>
          <span data-testid="fund-usable">{money(holding.usableShares, 'USD')}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('account.unusableShares')}>
          {money(holding.unusableShares, 'USD')}
        </Descriptions.Item>
        <Descriptions.Item label={t('account.rate')}>{product ? percent(product.annualRate) : '—'}</Descriptions.Item>
        <Descriptions.Item label={t('account.interestShares')}>
          {money(holding.interestShares, 'USD')}
        </Descriptions.Item>
        <Descriptions.Item label={t('account.unInterestShares')}>
          {money(holding.unInterestShares, 'USD')}
        </Descriptions.Item>
        <Descriptions.Item label={t('account.unpaidCurrent')}>{money(holding.unsettleProfit, 'USD')}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
