import type { FundEarningsDay } from '@meridian/contracts/funds';
import { Card, Segmented, Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';

/** The chart and its library load after the page (the page-weight budgets of docs/performance.md). */
const EarningsChart = lazy(() => import('./earnings-chart.tsx'));

/** Ranges of the earnings chart, in days. */
const CHART_RANGES_DAYS = [7, 30, 90] as const;

/** Props of {@link FundEarningsCard}. */
export interface FundEarningsCardProps {
  /** The range shown, in days (one of {@link CHART_RANGES_DAYS}). */
  rangeDays: number;
  onRangeChange: (days: number) => void;
  /** The daily earnings of the range; undefined while they load. */
  days: FundEarningsDay[] | undefined;
}

/** The fund account's chart of daily earnings, with its range switch. */
export function FundEarningsCard({ rangeDays, onRangeChange, days }: FundEarningsCardProps) {
  const { t } = useTranslation('funds');
  return (
    <Card
      title={t('account.earnings')}
      extra={
        <Segmented
          size="small"
          value={rangeDays}
          onChange={(value) => onRangeChange(value)}
          options={CHART_RANGES_DAYS.map((range) => ({ value: range, label: t('chart.days', { count: range }) }))}
        />
      }
    >
      {days ? (
        <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: 260 }} />}>
          <EarningsChart days={days} />
        </Suspense>
      ) : (
        <Skeleton active />
      )}
    </Card>
  );
}
