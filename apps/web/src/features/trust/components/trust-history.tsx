import type { TrustDetail, TrustMovement } from '@meridian/contracts/trust';
import { Card, Empty, Flex, Pagination, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useIsMobile } from '../../../lib/viewport.ts';
import { TRUST_HISTORY_PAGE_SIZE } from '../api/get-trust.ts';
import { btc, formatDateTime } from '../lib/trust-format.ts';

/** The trust's history (entrust, withdraw, release), paged: a table, or blocks at phone width. */
export function TrustHistory({
  trust,
  pageID,
  onPage,
}: {
  trust: TrustDetail;
  pageID: number;
  onPage(pageID: number): void;
}) {
  const { t, i18n } = useTranslation('trust');
  const isMobile = useIsMobile();
  const kindLabel = (kind: TrustMovement['kind']) => t(`history.kind.${kind}`);
  return (
    <Card title={t('history.title')} size="small">
      {isMobile ? (
        <MobileHistory trust={trust} pageID={pageID} onPage={onPage} />
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
            onChange: onPage,
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
  );
}

/** The history at phone width: one block per movement (type and time, then amount, fee and net), paged. */
function MobileHistory({
  trust,
  pageID,
  onPage,
}: {
  trust: TrustDetail;
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
