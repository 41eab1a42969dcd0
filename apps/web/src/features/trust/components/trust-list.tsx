import { money } from '../../../lib/money.ts';
import { TRUST_ASSET, type Trust } from '@meridian/contracts/trust';
import { Card, Empty, Flex, List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../../config/paths.ts';
import { TrustStateTag } from './trust-state-tag.tsx';

/** The user's trusts: name, state, holding and terms, each opening its page. */
export function TrustList({ trusts }: { trusts: Trust[] }) {
  const { t } = useTranslation('trust');
  return (
    <Card title={t('list.title')} data-testid="trust-list">
      {trusts.length === 0 ? (
        <Empty description={t('list.empty')} />
      ) : (
        <List
          dataSource={trusts}
          renderItem={(trust) => (
            <List.Item key={trust.id} data-testid="trust-item">
              <Flex justify="space-between" align="center" wrap gap={8} style={{ width: '100%' }}>
                <Flex vertical gap={2}>
                  <Link to={pathTo('TrustDetail', { id: String(trust.id) })} data-testid="trust-link">
                    <Typography.Text strong>{trust.name}</Typography.Text>
                  </Link>
                  <Typography.Text type="secondary">
                    {[
                      trust.termMonths === null ? t('terms.openEnded') : t('terms.months', { count: trust.termMonths }),
                      t(trust.isRevocable ? 'terms.revocable' : 'terms.irrevocable'),
                    ].join(' · ')}
                  </Typography.Text>
                </Flex>
                <Flex gap={12} align="center">
                  <Typography.Text strong data-testid="trust-holding">
                    {money(trust.holding, TRUST_ASSET)}
                  </Typography.Text>
                  <TrustStateTag state={trust.state} />
                </Flex>
              </Flex>
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
