import type { FundAsset, FundProduct } from '@meridian/contracts/funds';
import { Button, Card, Descriptions, Empty, Flex, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../../config/paths.ts';
import { money } from '../../../lib/money.ts';
import { useIsMobile } from '../../../lib/viewport.ts';
import { percent } from '../lib/format.ts';
import { usePeriodLabel } from './product-card.tsx';

/** Props of {@link FixedHoldingsCard}. */
export interface FixedHoldingsCardProps {
  /** The caller's fixed-fund totals (USD). */
  holding: FundAsset['fixedProduct'];
  /** The fixed products the caller holds shares of. */
  held: FundProduct[];
  /** True while the products load (the table's spinner). */
  isLoading: boolean;
}

/** The fund account's fixed holdings: the totals, then one row (desktop) or card (mobile) per product held. */
export function FixedHoldingsCard({ holding, held, isLoading }: FixedHoldingsCardProps) {
  const { t } = useTranslation('funds');
  const isMobile = useIsMobile();
  return (
    <Card
      title={t('account.fixed')}
      extra={
        <Link to={`${pathTo('Earn')}#products`}>
          <Button size="small">{t('account.browseFixed')}</Button>
        </Link>
      }
    >
      <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }} style={{ marginBottom: 12 }}>
        <Descriptions.Item label={t('account.fixedPrincipal')}>{money(holding.totalShares, 'USD')}</Descriptions.Item>
        <Descriptions.Item label={t('account.unpaidFixed')}>{money(holding.unsettleProfit, 'USD')}</Descriptions.Item>
        <Descriptions.Item label={t('account.fixedPaid')}>{money(holding.historyProfit, 'USD')}</Descriptions.Item>
      </Descriptions>
      {isMobile ? <FixedHoldingList held={held} /> : <FixedHoldingTable held={held} isLoading={isLoading} />}
    </Card>
  );
}

/** Mobile: one card per fixed product held. */
function FixedHoldingList({ held }: { held: FundProduct[] }) {
  const { t } = useTranslation('funds');
  const periodLabel = usePeriodLabel();
  if (held.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('account.noFixed')} />;
  return (
    <Flex vertical gap={12} data-testid="fixed-holdings">
      {held.map((product) => (
        <Card size="small" key={product.productId} title={product.productName}>
          <Descriptions size="small" column={1}>
            <Descriptions.Item label={t('account.term')}>{periodLabel(product.period)}</Descriptions.Item>
            <Descriptions.Item label={t('account.rate')}>{percent(product.annualRate)}</Descriptions.Item>
            <Descriptions.Item label={t('account.principal')}>
              <span data-testid="fixed-principal">{money(product.holdingShares, 'USD', { unit: 'none' })}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('account.accrued')}>
              {money(product.unsettleProfit, 'USD', { unit: 'none' })}
            </Descriptions.Item>
            <Descriptions.Item label={t('product.interestStart')}>{product.interestDate}</Descriptions.Item>
            <Descriptions.Item label={t('product.maturity')}>
              <span data-testid="fixed-maturity">{product.maturityDate}</span>
            </Descriptions.Item>
          </Descriptions>
        </Card>
      ))}
    </Flex>
  );
}

/** Desktop: a table of the fixed products held. */
function FixedHoldingTable({ held, isLoading }: { held: FundProduct[]; isLoading: boolean }) {
  const { t } = useTranslation('funds');
  const periodLabel = usePeriodLabel();
  return (
    <Table<FundProduct>
      rowKey="productId"
      size="small"
      pagination={false}
      loading={isLoading}
      dataSource={held}
      scroll={{ x: 'max-content' }}
      data-testid="fixed-holdings"
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('account.noFixed')} /> }}
      columns={[
        { title: t('account.product'), dataIndex: 'productName' },
        { title: t('account.term'), dataIndex: 'period', render: (period: number) => periodLabel(period) },
        { title: t('account.rate'), dataIndex: 'annualRate', render: (rate: string) => percent(rate) },
        {
          title: t('account.principal'),
          dataIndex: 'holdingShares',
          align: 'right',
          render: (value: string) => <span data-testid="fixed-principal">{money(value, 'USD', { unit: 'none' })}</span>,
        },
        {
          title: t('account.accrued'),
          dataIndex: 'unsettleProfit',
          align: 'right',
          render: (value: string) => money(value, 'USD', { unit: 'none' }),
        },
        { title: t('product.interestStart'), dataIndex: 'interestDate' },
        {
          title: t('product.maturity'),
          dataIndex: 'maturityDate',
          render: (value: string | null) => <span data-testid="fixed-maturity">{value}</span>,
        },
      ]}
    />
  );
}
