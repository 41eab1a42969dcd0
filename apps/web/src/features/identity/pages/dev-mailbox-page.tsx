import { Alert, Input, Table, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiClient, unwrap } from '../../../lib/api-client.ts';

interface OutboxItem {
  id: number;
  channel: string;
  recipient: string;
  subject: string;
  body: string;
  tag: string | null;
  createdAt: string;
}

/**
 * `/dev/mailbox`: the embedded outbox of mail and SMS (never in production, where the server does
 * not answer it). Developers and end-to-end tests read their codes here.
 */
export function DevMailboxPage() {
  const { t } = useTranslation('identity');
  const [recipient, setRecipient] = useState('');
  const messages = useQuery({
    queryKey: ['dev-mailbox', recipient],
    refetchInterval: 3000,
    retry: false,
    queryFn: async () =>
      unwrap(
        // A development tool with no descriptor on purpose: the API document never lists it, and
        // the server does not serve it in production.
        // eslint-disable-next-line no-restricted-syntax
        await apiClient.get<OutboxItem[]>('dev/mailbox', { params: { to: recipient || undefined }, silent: true }),
      ),
  });
  return (
    <div className="content-card" style={{ maxWidth: 1100, margin: '24px auto' }} data-testid="dev-mailbox">
      <h1>{t('mailbox.title')}</h1>
      <Alert type="info" showIcon message={t('mailbox.hint')} style={{ marginBottom: 16 }} />
      <Input.Search
        placeholder={t('mailbox.filter')}
        allowClear
        onSearch={(value) => setRecipient(value.trim())}
        style={{ maxWidth: 360, marginBottom: 16 }}
        data-testid="mailbox-filter"
      />
      {messages.isError ? (
        <Alert type="warning" message={t('mailbox.unavailable')} />
      ) : (
        <Table
          rowKey="id"
          size="small"
          loading={messages.isLoading}
          dataSource={messages.data ?? []}
          pagination={{ pageSize: 20 }}
          columns={[
            {
              title: t('mailbox.time'),
              dataIndex: 'createdAt',
              width: 150,
              render: (value: string) => dayjs(value).format('YYYY-MM-DD HH:mm:ss'),
            },
            {
              title: t('mailbox.to'),
              dataIndex: 'recipient',
              width: 220,
              render: (value: string, row) => (
                <>
                  {value} <Tag>{row.channel}</Tag>
                </>
              ),
            },
            {
              title: t('mailbox.subject'),
              dataIndex: 'subject',
              render: (value: string, row) => <span data-testid="mailbox-message">{value || row.body}</span>,
            },
            { title: t('mailbox.body'), dataIndex: 'body' },
          ]}
        />
      )}
    </div>
  );
}
