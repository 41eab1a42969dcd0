import type { FundAsset } from '@meridian/contracts/funds';
import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { money } from '../../../lib/money.ts';
import { addUsd } from '../lib/format.ts';

/** The fund account's four totals: value, yesterday's profit, unpaid interest and paid interest (USD). */
export function FundAccountStats({ asset }: { asset: FundAsset }) {
  const { t } = useTranslation('funds');
  // Unpaid interest: the current fund's (paid monthly) and the fixed orders' (paid at maturity).
  const unpaid = addUsd(asset.currentProduct.unsettleProfit, asset.fixedProduct.unsettleProfit);
  return (
    <Row gutter={[16, 16]} className="fund-stats">
      <Col xs={12} md={6}>
        <Card>
          <Statistic title={t('account.totalValue')} value={money(asset.totalValue, 'USD')} data-testid="fund-total" />
        </Card>
      </Col>
      <Col xs={12} md={6}>
        <Card>
          <Statistic title={t('account.yesterdayProfit')} value={money(asset.yesterdayProfit, 'USD')} />
        </Card>
      </Col>
      <Col xs={12} md={6}>
        <Card>
          <Statistic title={t('account.unpaid')} value={money(unpaid, 'USD')} data-testid="fund-unpaid" />
        </Card>
      </Col>
      <Col xs={12} md={6}>
        <Card>
          <Statistic title={t('account.historyProfit')} value={money(asset.historyProfit, 'USD')} />
        </Card>
      </Col>
    </Row>
  );
}
