import type { TrustDetail } from '@meridian/contracts/trust';
import { Card, Descriptions, Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useIsMobile } from '../../../lib/viewport.ts';
import { btc, formatDateTime } from '../lib/trust-format.ts';

/** The trust's holding, fees paid, term (and its end), revocability, inactivity period and creation. */
export function TrustFacts({ trust }: { trust: TrustDetail }) {
  const { t, i18n } = useTranslation('trust');
  const isMobile = useIsMobile();
  return (
    <Card>
      <Descriptions
        column={isMobile ? 1 : 2}
        size="small"
        items={[
          {
            key: 'holding',
            label: t('detail.holding'),
            children: (
              <Typography.Text strong data-testid="trust-detail-holding">
                {btc(trust.holding)}
              </Typography.Text>
            ),
          },
          {
            key: 'fees',
            label: t('detail.feesPaid'),
            children: <span data-testid="trust-detail-fees">{btc(trust.feesPaid)}</span>,
          },
          {
            key: 'term',
            label: t('detail.term'),
            children:
              trust.termMonths === null
                ? t('terms.openEnded')
                : `${t('terms.months', { count: trust.termMonths })}${trust.termEndsAt ? ` · ${t('detail.until', { date: formatDateTime(trust.termEndsAt, i18n.language) })}` : ''}`,
          },
          {
            key: 'revocable',
            label: t('detail.revocability'),
            children: t(trust.isRevocable ? 'terms.revocable' : 'terms.irrevocable'),
          },
          {
            key: 'inactivity',
            label: t('detail.inactivity'),
            children: t('terms.months', { count: trust.inactivityMonths }),
          },
          { key: 'created', label: t('detail.created'), children: formatDateTime(trust.createdAt, i18n.language) },
        ]}
      />
    </Card>
  );
}

/** The trust's beneficiaries: name, email and share. */
export function TrustBeneficiaries({ trust }: { trust: TrustDetail }) {
  const { t } = useTranslation('trust');
  return (
    <Card title={t('detail.beneficiaries')} size="small">
      <Flex vertical gap={8}>
        {trust.beneficiaries.map((item) => (
          <Flex key={item.email} justify="space-between" wrap gap={8} data-testid="trust-beneficiary">
            <span>
              <Typography.Text strong>{item.name}</Typography.Text>{' '}
              <Typography.Text type="secondary">{item.email}</Typography.Text>
            </span>
            <Tag>{Number(item.sharePct)}%</Tag>
          </Flex>
        ))}
      </Flex>
    </Card>
  );
}
