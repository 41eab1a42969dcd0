import { CURRENT_PRODUCT_ID, type FundProduct } from '@meridian/contracts/funds';
import { Button, Card, Col, Descriptions, Empty, Flex, Row, Segmented, Skeleton, Statistic, Table } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { RequireUser } from '../../../components/require-user.tsx';
import { pathTo } from '../../../config/paths.ts';
import { useUserId } from '../../../lib/session.ts';
import { useIsMobile } from '../../../lib/viewport.ts';
import { useFundAsset } from '../api/get-fund-asset.ts';
import { useFundEarnings } from '../api/get-fund-earnings.ts';
import { useFundProducts } from '../api/get-fund-products.ts';
import { FundAccessPrompt } from '../components/fund-access-prompt.tsx';
import { useFundActions } from '../components/fund-actions.tsx';
import { usePeriodLabel } from '../components/product-card.tsx';
import { addUsd, isPositive, percent } from '../lib/format.ts';
import { fundAccessOf } from '../lib/fund-access.ts';
import './funds.css';
import { money } from '../../../lib/money.ts';

/** The chart and its library load after the page (the page-weight budgets of docs/performance.md). */
const EarningsChart = lazy(() => import('../components/earnings-chart.tsx'));

/** Ranges of the earnings chart, in days. */
const CHART_RANGES_DAYS = [7, 30, 90] as const;

/**
 * /my/account/fund, FundAccount: the totals (value, yesterday's profit, unpaid and
 * paid interest), the current holding (usable and unusable shares) with Subscribe / Redeem, the fixed
 * holdings with their maturity dates, and a chart of daily earnings.
 */
export function FundAccountPage() {
  return (
    <RequireUser>
      <PageFrame>
        <FundAccount />
      </PageFrame>
    </RequireUser>
  );
}

function FundAccount() {
  const { t } = useTranslation('funds');
  const userId = useUserId();
  const asset = useFundAsset();
  const products = useFundProducts();
  const actions = useFundActions();
  const periodLabel = usePeriodLabel();
  const isMobile = useIsMobile();
  const [rangeDays, setRangeDays] = useState<number>(30);
  const earnings = useFundEarnings(rangeDays);
  const access = fundAccessOf(userId !== null, asset.error);
  if (access.kind !== 'ok') return <FundAccessPrompt access={access} />;
  if (!asset.data) return <Skeleton active />;

  const { currentProduct, fixedProduct } = asset.data;
  const current = products.data?.find((p) => p.productId === CURRENT_PRODUCT_ID);
  const fixedHeld = (products.data ?? []).filter((p) => p.type === 'FIXED' && isPositive(p.holdingShares));
  // Unpaid interest: the current fund's (paid monthly) and the fixed orders' (paid at maturity).
  const unpaid = addUsd(currentProduct.unsettleProfit, fixedProduct.unsettleProfit);

  return (
    <Flex vertical gap={16} data-testid="fund-account">
      <Row gutter={[16, 16]} className="fund-stats">
        <Col xs={12} md={6}>
          <Card>
            <Statistic
              title={t('account.totalValue')}
              value={money(asset.data.totalValue, 'USD')}
              data-testid="fund-total"
            />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card>
            <Statistic title={t('account.yesterdayProfit')} value={money(asset.data.yesterdayProfit, 'USD')} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card>
            <Statistic title={t('account.unpaid')} value={money(unpaid, 'USD')} data-testid="fund-unpaid" />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card>
            <Statistic title={t('account.historyProfit')} value={money(asset.data.historyProfit, 'USD')} />
          </Card>
        </Col>
      </Row>

      <Card
        title={t('account.current')}
        extra={
          current && (
            <Flex gap={8}>
              <Button
                type="primary"
                size="small"
                onClick={() => actions.subscribe(current)}
                data-testid="account-subscribe"
              >
                {t('actions.subscribe')}
              </Button>
              <Button
                size="small"
                disabled={!isPositive(currentProduct.usableShares)}
                onClick={() => actions.redeem(current)}
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
            <span data-testid="fund-usable">{money(currentProduct.usableShares, 'USD')}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('account.unusableShares')}>
            {money(currentProduct.unusableShares, 'USD')}
          </Descriptions.Item>
          <Descriptions.Item label={t('account.rate')}>{current ? percent(current.annualRate) : '—'}</Descriptions.Item>
          <Descriptions.Item label={t('account.interestShares')}>
            {money(currentProduct.interestShares, 'USD')}
          </Descriptions.Item>
          <Descriptions.Item label={t('account.unInterestShares')}>
            {money(currentProduct.unInterestShares, 'USD')}
          </Descriptions.Item>
          <Descriptions.Item label={t('account.unpaidCurrent')}>
            {money(currentProduct.unsettleProfit, 'USD')}
          </Descriptions.Item>
        </Descriptions>
      </Card>

      <Card
        title={t('account.fixed')}
        extra={
          <Link to={`${pathTo('Earn')}#products`}>
            <Button size="small">{t('account.browseFixed')}</Button>
          </Link>
        }
      >
        <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }} style={{ marginBottom: 12 }}>
          <Descriptions.Item label={t('account.fixedPrincipal')}>
            {money(fixedProduct.totalShares, 'USD')}
          </Descriptions.Item>
          <Descriptions.Item label={t('account.unpaidFixed')}>
            {money(fixedProduct.unsettleProfit, 'USD')}
          </Descriptions.Item>
          <Descriptions.Item label={t('account.fixedPaid')}>
            {money(fixedProduct.historyProfit, 'USD')}
          </Descriptions.Item>
        </Descriptions>
        {isMobile ? (
          fixedHeld.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('account.noFixed')} />
          ) : (
            <Flex vertical gap={12} data-testid="fixed-holdings">
              {fixedHeld.map((product) => (
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
          )
        ) : (
          <Table<FundProduct>
            rowKey="productId"
            size="small"
            pagination={false}
            loading={products.isPending}
            dataSource={fixedHeld}
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
                render: (value: string) => (
                  <span data-testid="fixed-principal">{money(value, 'USD', { unit: 'none' })}</span>
                ),
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
        )}
      </Card>

      <Card
        title={t('account.earnings')}
        extra={
          <Segmented
            size="small"
            value={rangeDays}
            onChange={(value) => setRangeDays(value)}
            options={CHART_RANGES_DAYS.map((days) => ({ value: days, label: t('chart.days', { count: days }) }))}
          />
        }
      >
        {earnings.data ? (
          <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: 260 }} />}>
            <EarningsChart days={earnings.data} />
          </Suspense>
        ) : (
          <Skeleton active />
        )}
      </Card>
      <Flex justify="end">
        <Link to={pathTo('FundHistory')}>
          <Button type="link">{t('account.history')}</Button>
        </Link>
      </Flex>
      {actions.modals}
    </Flex>
  );
}
