import { money } from '../../../lib/money.ts';
import { TRUST_ASSET, type TrustDetail as TrustDetailContent, type TrustMovement } from '@meridian/contracts/trust';
import { Button, Card, Descriptions, Empty, Flex, Pagination, Result, Skeleton, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { RequireUser } from '../../../components/require-user.tsx';
import { pathTo } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useIsMobile } from '../../../lib/viewport.ts';
import { TRUST_HISTORY_PAGE_SIZE, useTrust } from '../api/get-trust.ts';
import { LevelGate } from '../components/level-gate.tsx';
import { MoveModal } from '../components/move-modal.tsx';
import { TrustStateTag } from '../components/trust-state-tag.tsx';

const btc = (amount: string) => money(amount, TRUST_ASSET);

function formatDateTime(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/**
 * `/product/trust/:id`: one trust — state, holding, fees paid, terms and beneficiaries —
 * with Fund (fee and net shown before confirming) and Withdraw (revocable and active only), both
 * through the security check, and its history (entrust, withdraw, release), paged.
 */
export function TrustDetailPage() {
  return (
    <RequireUser>
      <div className="container section">
        <TrustDetail />
      </div>
    </RequireUser>
  );
}

function TrustDetail() {
  const { t, i18n } = useTranslation('trust');
  const isMobile = useIsMobile();
  const id = Number(useParams().id);
  const [pageID, setPageID] = useState(1);
  const [modal, setModal] = useState<'fund' | 'withdraw' | null>(null);
  const query = useTrust(id, pageID);
  if (query.error instanceof ApiError && query.error.statusCode === 143)
    return (
      <PageFrame>
        <LevelGate error={query.error} />
      </PageFrame>
    );
  if (query.error)
    return (
      <PageFrame>
        <Result
          status="404"
          title={t('detail.notFound')}
          extra={
            <Link to={pathTo('Trust')}>
              <Button type="primary">{t('detail.back')}</Button>
            </Link>
          }
        />
      </PageFrame>
    );
  const trust = query.data;
  if (!trust)
    return (
      <PageFrame>
        <Skeleton active />
      </PageFrame>
    );
  const isActive = trust.state === 'active';
  const kindLabel = (kind: TrustMovement['kind']) => t(`history.kind.${kind}`);

  return (
    <PageFrame
      title={
        <span data-testid="trust-title">
          {trust.name} <TrustStateTag state={trust.state} />
        </span>
      }
      actions={
        <Flex gap={8} wrap>
          <Button type="primary" disabled={!isActive} onClick={() => setModal('fund')} data-testid="trust-fund">
            {t('detail.fund')}
          </Button>
          <Button
            disabled={!isActive || !trust.isRevocable}
            title={trust.isRevocable ? undefined : t('detail.irrevocableHint')}
            onClick={() => setModal('withdraw')}
            data-testid="trust-withdraw"
          >
            {t('detail.withdraw')}
          </Button>
        </Flex>
      }
    >
      <Flex vertical gap={16}>
        {trust.state === 'claim' && <Card size="small">{t('detail.claimNote')}</Card>}
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
        <Card title={t('history.title')} size="small">
          {isMobile ? (
            <MobileHistory trust={trust} pageID={pageID} onPage={setPageID} />
          ) : (
            <Table<TrustMovement>
              rowKey="id"
              rowClassName="trust-history-row"
              size="small"
              dataSource={trust.history.list}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: t('history.empty') }}
              pagination={{
                current: pageID,
                pageSize: TRUST_HISTORY_PAGE_SIZE,
                total: trust.history.totalCount,
                onChange: setPageID,
                hideOnSinglePage: true,
              }}
              columns={[
                { title: t('history.kind.title'), dataIndex: 'kind', render: kindLabel },
                { title: t('history.amount'), dataIndex: 'amount', align: 'right', render: btc },
                { title: t('history.fee'), dataIndex: 'fee', align: 'right', render: btc },
                { title: t('history.net'), dataIndex: 'net', align: 'right', render: btc },
                {
                  title: t('history.time'),
                  dataIndex: 'createdAt',
                  render: (value: string) => formatDateTime(value, i18n.language),
                },
              ]}
              data-testid="trust-history"
            />
          )}
        </Card>
      </Flex>
      {modal && <MoveModal trust={trust} direction={modal} onClose={() => setModal(null)} />}
    </PageFrame>
  );
}

/** The history at phone width: one block per movement (type and time, then amount, fee and net), paged. */
function MobileHistory({
  trust,
  pageID,
  onPage,
}: {
  trust: TrustDetailContent;
  pageID: number;
  onPage(pageID: number): void;
}) {
  const { t, i18n } = useTranslation('trust');
  if (trust.history.list.length === 0) return <Empty description={t('history.empty')} />;
  return (
    <Flex vertical gap={12} data-testid="trust-history">
      {trust.history.list.map((movement) => (
        <Flex key={movement.id} vertical gap={4} className="trust-history-row">
          <Flex justify="space-between">
            <Typography.Text strong>{t(`history.kind.${movement.kind}`)}</Typography.Text>
            <Typography.Text type="secondary">{formatDateTime(movement.createdAt, i18n.language)}</Typography.Text>
          </Flex>
          {(['amount', 'fee', 'net'] as const).map((field) => (
            <Flex key={field} justify="space-between">
              <Typography.Text type="secondary">{t(`history.${field}`)}</Typography.Text>
              <span>{btc(movement[field])}</span>
            </Flex>
          ))}
        </Flex>
      ))}
      {trust.history.totalPage > 1 && (
        <Pagination
          size="small"
          current={pageID}
          pageSize={TRUST_HISTORY_PAGE_SIZE}
          total={trust.history.totalCount}
          onChange={onPage}
        />
      )}
    </Flex>
  );
}
