import type { LiabilitiesSnapshot } from '@meridian/contracts/liabilities';
import { Button, Card, Descriptions, Empty, Flex, Skeleton, Table, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { MoneyTable } from '../../../components/money-table.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { useUserId } from '../../../lib/session.ts';
import { openActionModal } from '../../../stores/modal-store.ts';
import { useLiabilitiesSnapshots } from '../api/get-liabilities-snapshots.ts';
import { ProofCheck } from '../components/proof-check.tsx';
import './liabilities-page.css';

/**
 * `/proof-of-liabilities`: the latest Merkle sum root with the totals per asset, the
 * history of published roots, and for a signed-in user the check of their own proof in the browser
 * (verified as the page opens, docs/liabilities.md "How a user verifies").
 */
export function LiabilitiesPage() {
  const { t } = useTranslation('liabilities');
  const userId = useUserId();
  const snapshots = useLiabilitiesSnapshots();
  const publishedRoots = useMemo(
    () => new Map((snapshots.data?.history ?? []).map((item) => [item.snapshotDate, item.rootHash])),
    [snapshots.data],
  );
  const latest = snapshots.data?.latest ?? null;

  return (
    <div className="container section liabilities-page">
      <PageFrame title={t('title')} subtitle={t('subtitle')}>
        <Flex vertical gap={24}>
          <Card title={t('latest.title')} data-testid="liabilities-latest">
            {!snapshots.data ? (
              <Skeleton active />
            ) : latest ? (
              <LatestSnapshot snapshot={latest} />
            ) : (
              <Empty description={t('latest.none')} />
            )}
          </Card>
          <Card title={t('proof.title')}>
            {userId ? (
              latest ? (
                <ProofCheck publishedRoots={publishedRoots} />
              ) : (
                <Typography.Text type="secondary">{t('latest.none')}</Typography.Text>
              )
            ) : (
              <Flex vertical gap={12} align="start">
                <Typography.Text>{t('proof.signIn')}</Typography.Text>
                <Button
                  type="primary"
                  onClick={() => openActionModal('login', { returnTo: window.location.pathname })}
                  data-testid="liabilities-sign-in"
                >
                  {t('proof.signInButton')}
                </Button>
              </Flex>
            )}
          </Card>
          <Card title={t('how.title')}>
            <ol className="liabilities-steps">
              <li>{t('how.leaf')}</li>
              <li>{t('how.node')}</li>
              <li>{t('how.root')}</li>
              <li>{t('how.script')}</li>
            </ol>
          </Card>
          <Card title={t('history.title')}>
            <MoneyTable<LiabilitiesSnapshot>
              size="small"
              rowKey="snapshotDate"
              loading={!snapshots.data}
              dataSource={snapshots.data?.history ?? []}
              pagination={false}
              scroll={{ x: 'max-content' }}
              data-testid="liabilities-history"
              mobileTestId="liabilities-history-list"
              locale={{ emptyText: t('latest.none') }}
              columns={[
                { title: t('columns.date'), dataIndex: 'snapshotDate', mobile: 'title' },
                {
                  title: t('columns.root'),
                  dataIndex: 'rootHash',
                  render: (hash: string) => (
                    <Typography.Text className="liabilities-hash" copyable={{ text: hash }}>
                      {`${hash.slice(0, 16)}…`}
                    </Typography.Text>
                  ),
                },
                { title: t('columns.users'), dataIndex: 'leafCount', align: 'right' },
                {
                  title: t('columns.totals'),
                  key: 'totals',
                  // One asset a line, so that a phone wraps between assets, never inside a figure.
                  render: (_: unknown, item: LiabilitiesSnapshot) => (
                    <Flex vertical>
                      {item.totals
                        .filter((line) => line.totalMinor !== '0')
                        .map((line) => (
                          <span key={line.asset}>{`${line.total} ${line.asset}`}</span>
                        ))}
                    </Flex>
                  ),
                },
              ]}
            />
          </Card>
        </Flex>
      </PageFrame>
    </div>
  );
}

function LatestSnapshot({ snapshot }: { snapshot: LiabilitiesSnapshot }) {
  const { t } = useTranslation('liabilities');
  return (
    <Flex vertical gap={16}>
      <Descriptions
        column={1}
        size="small"
        items={[
          { key: 'date', label: t('columns.date'), children: snapshot.snapshotDate },
          {
            key: 'root',
            label: t('columns.root'),
            children: (
              <Typography.Text className="liabilities-hash" copyable data-testid="liabilities-root">
                {snapshot.rootHash}
              </Typography.Text>
            ),
          },
          { key: 'users', label: t('columns.users'), children: snapshot.leafCount },
        ]}
      />
      <Table
        size="small"
        rowKey="asset"
        pagination={false}
        dataSource={snapshot.totals}
        data-testid="liabilities-totals"
        columns={[
          { title: t('columns.asset'), dataIndex: 'asset' },
          { title: t('columns.total'), dataIndex: 'total', align: 'right' },
        ]}
      />
    </Flex>
  );
}
