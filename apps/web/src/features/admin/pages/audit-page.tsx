import type { AuditEntry } from '@meridian/contracts/back-office';
import { Button, DatePicker, Form, Input, Space, Table, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAudit } from '../api/list-audit.ts';
import { PageTitle } from '../components/page-title.tsx';
import { QueryError } from '../components/query-error.tsx';
import { type AuditFilters, auditCsvHref, auditQueryOf } from '../lib/audit-csv.ts';
import { auditActionLabel } from '../lib/labels.ts';
import { formatDateTime } from '../lib/time.ts';
import { usePaging } from '../lib/use-paging.ts';

interface FilterForm {
  operator?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  dates?: [Dayjs | null, Dayjs | null] | null;
}

/** The form's values as the list's (and the CSV's) filters; dates as `YYYY-MM-DD`. */
function filtersOf(values: FilterForm): AuditFilters {
  const [from, to] = values.dates ?? [null, null];
  return {
    operator: values.operator,
    action: values.action,
    targetType: values.targetType,
    targetId: values.targetId,
    from: from?.format('YYYY-MM-DD'),
    to: to?.format('YYYY-MM-DD'),
  };
}

/** A before/after value as indented JSON. */
function JsonBlock({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <>—</>;
  return <pre className="admin-json">{JSON.stringify(value, null, 2)}</pre>;
}

/**
 * `/admin/audit`: the append-only audit log, filtered by operator, action, target and dates, with
 * each entry's before/after and an "Export CSV" link carrying the same filters.
 */
export function AuditPage() {
  const { t, i18n } = useTranslation('admin');
  const [form] = Form.useForm<FilterForm>();
  const [filters, setFilters] = useState<AuditFilters>({});
  const paging = usePaging();
  const audit = useAudit({ ...auditQueryOf(filters), pageID: paging.pageID, pageSize: paging.pageSize });

  return (
    <>
      <PageTitle
        extra={
          <Button href={auditCsvHref(filters)} download>
            {t('audit.exportCsv')}
          </Button>
        }
      >
        {t('audit.title')}
      </PageTitle>
      <Form<FilterForm>
        form={form}
        layout="inline"
        style={{ marginBottom: 16, rowGap: 8 }}
        onFinish={(values) => {
          setFilters(filtersOf(values));
          paging.reset();
        }}
      >
        <Form.Item name="operator" label={t('audit.operator')}>
          <Input allowClear maxLength={200} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="action" label={t('audit.action')}>
          <Input allowClear maxLength={100} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="targetType" label={t('audit.targetType')}>
          <Input allowClear maxLength={50} style={{ width: 140 }} />
        </Form.Item>
        <Form.Item name="targetId" label={t('audit.targetId')}>
          <Input allowClear maxLength={100} style={{ width: 180 }} />
        </Form.Item>
        <Form.Item name="dates" label={t('audit.dates')}>
          <DatePicker.RangePicker allowEmpty={[true, true]} />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            {t('audit.apply')}
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              setFilters({});
              paging.reset();
            }}
          >
            {t('audit.clear')}
          </Button>
        </Space>
      </Form>
      {audit.isError && <QueryError error={audit.error} onRetry={() => void audit.refetch()} />}
      <Table<AuditEntry>
        rowKey="id"
        loading={audit.isFetching}
        dataSource={audit.data?.list}
        pagination={paging.pagination(audit.data?.totalCount)}
        expandable={{
          expandedRowRender: (row) => (
            <Space align="start" size="large" style={{ width: '100%' }}>
              <div style={{ minWidth: 360 }}>
                <strong>{t('audit.before')}</strong>
                <JsonBlock value={row.before} />
              </div>
              <div style={{ minWidth: 360 }}>
                <strong>{t('audit.after')}</strong>
                <JsonBlock value={row.after} />
              </div>
            </Space>
          ),
        }}
        columns={[
          { title: t('common.time'), dataIndex: 'at', render: (at: string) => formatDateTime(at, i18n.language) },
          {
            title: t('audit.operator'),
            dataIndex: 'operatorEmail',
            render: (email: string | null) => email ?? t('audit.system'),
          },
          // The action's label in the operator's language, with the log's code under it (what the filter and the CSV use).
          {
            title: t('audit.action'),
            dataIndex: 'action',
            render: (action: string) => (
              <Space direction="vertical" size={0}>
                <span>{auditActionLabel(t, action)}</span>
                <code className="admin-code-hint">{action}</code>
              </Space>
            ),
          },
          {
            title: t('audit.target'),
            key: 'target',
            render: (_, row) => (
              <>
                <code>{row.targetType}</code>
                {row.targetId ? ` ${row.targetId}` : ''}
              </>
            ),
          },
          { title: t('common.reason'), dataIndex: 'reason', render: (reason: string | null) => reason ?? '—' },
          { title: t('common.ip'), dataIndex: 'ip', render: (ip: string | null) => ip ?? '—' },
          {
            title: t('audit.outcome'),
            dataIndex: 'outcomeCode',
            render: (code: number) =>
              code === 200 ? (
                <Tag color="green">{t('audit.done')}</Tag>
              ) : (
                <Tag color="red">{t('audit.refused', { code })}</Tag>
              ),
          },
        ]}
      />
    </>
  );
}
