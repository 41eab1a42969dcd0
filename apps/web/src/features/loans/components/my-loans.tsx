import type { LoanConfig, LoanOrder } from '@meridian/contracts/loans';
import { PRICE_HISTORY_RANGES, type PriceHistoryRange } from '@meridian/contracts/market';
import { Alert, Card, Col, Empty, Row, Segmented, Skeleton, Statistic } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../../config/paths.ts';
import { useCurrentLoans } from '../api/get-current-loans.ts';
import { useLoanAsset } from '../api/get-loan-asset.ts';
import { usePriceHistory } from '../api/get-price-history.ts';
import { pct } from '../lib/format.ts';
import { AdjustModal } from './adjust-modal.tsx';
import { type LoanAction, LoanCard } from './loan-card.tsx';
import type { PriceLine } from './price-chart.tsx';
import { ProtectionModal } from './protection-modal.tsx';
import { RepayModal } from './repay-modal.tsx';
import { money } from '../../../lib/money.ts';
import { MONEY_ROUNDING } from '@meridian/contracts/money-format';

/** The chart and its library (recharts) load after the page (the page-weight budgets of docs/performance.md). */
const PriceChart = lazy(() => import('./price-chart.tsx'));

/**
 * The signed-in, verified user's current loans (statuses 0, 2, 3, 4): totals from
 * `loan/asset`, the BTC price over a chosen range (24 h, 7 d, 30 d, 1 y; `market/price/history`)
 * with each loan's liquidation price, one card per loan with its LTV gauge, and the repay, adjust
 * and protection modals.
 */
export function MyLoans({ config }: { config: LoanConfig }) {
  const { t } = useTranslation('loans');
  const loans = useCurrentLoans();
  const [range, setRange] = useState<PriceHistoryRange>('24h');
  const history = usePriceHistory(range);
  const [open, setOpen] = useState<{ action: LoanAction; loan: LoanOrder } | null>(null);
  const list = loans.data?.list ?? [];
  // Each loan's liquidation price; with a single loan also its margin-call price (more lines would crowd the chart).
  const lines: PriceLine[] = list.flatMap((loan) => {
    const suffix = list.length > 1 ? ` #${loan.orderId}` : '';
    return [
      ...(loan.liquidationPrice
        ? [
            {
              key: `${loan.orderId}-liquidation`,
              label: `${t('chart.liquidation')}${suffix}`,
              priceUsd: loan.liquidationPrice,
              kind: 'liquidation' as const,
            },
          ]
        : []),
      ...(list.length === 1 && loan.marginCallPrice
        ? [
            {
              key: `${loan.orderId}-margin-call`,
              label: t('chart.marginCall'),
              priceUsd: loan.marginCallPrice,
              kind: 'marginCall' as const,
            },
          ]
        : []),
    ];
  });
  const close = () => setOpen(null);

  return (
    <div className="my-loans" data-testid="my-loans">
      <div className="section-head">
        <h2>{t('loans.title')}</h2>
        <p>
          {t('loans.subtitle')} <Link to={pathTo('LoanOrder')}>{t('loans.allRecords')}</Link>
        </p>
      </div>
      <LoanStats />
      {list.length > 0 && (
        <Card
          title={t('chart.title')}
          className="loan-chart-card"
          style={{ marginBottom: 16 }}
          data-testid="loan-chart-card"
          extra={
            <Segmented<PriceHistoryRange>
              size="small"
              value={range}
              onChange={setRange}
              aria-label={t('chart.rangeLabel')}
              data-testid="loan-chart-range"
              options={PRICE_HISTORY_RANGES.map((value) => ({ value, label: t(`chart.range.${value}`) }))}
            />
          }
        >
          {history.data && history.data.points.length > 1 ? (
            <Suspense fallback={<Skeleton active />}>
              <PriceChart history={history.data.points} range={range} lines={lines} />
            </Suspense>
          ) : history.isPending ? (
            <Skeleton active />
          ) : (
            <Empty description={t('chart.unavailable')} />
          )}
        </Card>
      )}
      {loans.isPending ? (
        <Skeleton active />
      ) : loans.isError ? (
        <Alert type="error" showIcon message={loans.error.message} />
      ) : list.length === 0 ? (
        <Card>
          <Empty description={t('loans.empty')} data-testid="loans-empty" />
        </Card>
      ) : (
        <Row gutter={[16, 16]} data-testid="loan-list">
          {list.map((loan) => (
            <Col xs={24} lg={12} key={loan.orderId}>
              <LoanCard loan={loan} config={config} onAction={(action, chosen) => setOpen({ action, loan: chosen })} />
            </Col>
          ))}
        </Row>
      )}
      {open?.action === 'repay' && <RepayModal loan={open.loan} onClose={close} />}
      {open?.action === 'adjust' && <AdjustModal loan={open.loan} config={config} onClose={close} />}
      {open?.action === 'protect' && <ProtectionModal loan={open.loan} onClose={close} />}
    </div>
  );
}

/** The user's loan totals: collateral, debt, LTV and the BTC price (nothing until they load). */
function LoanStats() {
  const { t } = useTranslation('loans');
  const asset = useLoanAsset();
  if (!asset.data) return null;
  return (
    <Row gutter={[16, 16]} className="loan-stats" style={{ marginBottom: 16 }}>
      <Col xs={12} md={6}>
        <Card>
          <Statistic
            title={t('loans.collateral')}
            value={money(asset.data.collateralAmount, 'BTC', { unit: 'none' })}
            suffix="BTC"
            data-testid="loan-total-collateral"
          />
        </Card>
      </Col>
      <Col xs={12} md={6}>
        <Card>
          <Statistic
            title={t('loans.debt')}
            value={money(asset.data.debtUsd, 'USD', { rounding: MONEY_ROUNDING.owed, unit: 'none' })}
            suffix="USD"
            data-testid="loan-total-debt"
          />
        </Card>
      </Col>
      <Col xs={12} md={6}>
        <Card>
          <Statistic title={t('ltv.label')} value={asset.data.ltvPct ? pct(asset.data.ltvPct) : '—'} />
        </Card>
      </Col>
      <Col xs={12} md={6}>
        <Card>
          <Statistic title={t('calc.btcPrice')} value={asset.data.price ? money(asset.data.price, 'USD') : '—'} />
        </Card>
      </Col>
    </Row>
  );
}
