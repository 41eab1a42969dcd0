import type { FundRateTier } from '@meridian/contracts/funds';
import { Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { percent } from '../lib/format.ts';
import { money } from '../../../lib/money.ts';

interface TierRow {
  key: number;
  range: string;
  rate: string;
}

/**
 * A product's tiered rate: each row the part of a holding it applies to
 * ("0.00 – 50,000.00 USD", "Above 50,000.00 USD") and its annual rate.
 */
export function RateTierTable({ tiers }: { tiers: readonly FundRateTier[] }) {
  const { t } = useTranslation('funds');
  let from = '0.00';
  const rows: TierRow[] = tiers.map((tier, index) => {
    const range =
      tier.upToShares === null
        ? index === 0
          ? t('tiers.any')
          : t('tiers.above', { from: money(from, 'USD', { unit: 'none' }) })
        : t('tiers.range', {
            from: money(from, 'USD', { unit: 'none' }),
            to: money(tier.upToShares, 'USD', { unit: 'none' }),
          });
    if (tier.upToShares !== null) from = tier.upToShares;
    return { key: index, range, rate: percent(tier.annualRate) };
  });
  return (
    <Table<TierRow>
      size="small"
      pagination={false}
      dataSource={rows}
      data-testid="rate-tiers"
      columns={[
        { title: t('tiers.holding'), dataIndex: 'range' },
        { title: t('tiers.rate'), dataIndex: 'rate', align: 'right' },
      ]}
    />
  );
}
