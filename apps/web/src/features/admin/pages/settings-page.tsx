import { type OpsWithdrawalLimit, opsWalletEndpoints } from '@meridian/contracts/wallet';
import { Button, Card, Form, Input, Modal, Table, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSetWithdrawalLimit, useWithdrawalLimits } from '../api/withdrawal-limits.ts';
import { useMayCall } from '../components/operator-context.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { QueryError } from '../components/query-error.tsx';
import { formatDateTime } from '../lib/time.ts';
import { CardSettingsTab } from './card-settings.tsx';
import { FundProductsTab } from './fund-product-settings.tsx';
import { LoanSettingsTab } from './loan-settings.tsx';
import { NetworksTab, PairsTab, PendingChangesTab } from './product-settings.tsx';

/** A positive USD amount with at most 2 decimals, as the contract takes it. */
const USD_PATTERN = /^\d+(\.\d{1,2})?$/;

/** The edit modal of one level's limits (USD per 24 hours and per month, decimal strings). */
function EditLimitModal({ limit, onClose }: { limit: OpsWithdrawalLimit | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<{ usdPer24h: string; usdPerMonth: string }>();
  const setLimit = useSetWithdrawalLimit();
  const submit = async () => {
    const values = await form.validateFields();
    if (!limit) return;
    try {
      await setLimit.mutateAsync({
        level: limit.level,
        usdPer24h: values.usdPer24h.trim(),
        usdPerMonth: values.usdPerMonth.trim(),
      });
      onClose();
    } catch {
      // Shown by the HTTP client.
    }
  };
  const rules = [{ required: true, pattern: USD_PATTERN, message: t('settings.usdInvalid') }];
  return (
    <Modal
      open={limit !== null}
      title={limit ? t('settings.editTitle', { level: limit.level }) : ''}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: setLimit.isPending }}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false} initialValues={limit ?? undefined}>
        <Form.Item name="usdPer24h" label={t('settings.per24h')} rules={rules}>
          <Input inputMode="decimal" prefix="$" />
        </Form.Item>
        <Form.Item name="usdPerMonth" label={t('settings.perMonth')} rules={rules}>
          <Input inputMode="decimal" prefix="$" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * `/admin/settings`: tabs of withdrawal limits per identity level, coin networks, swap
 * pairs, fund products, loan and card settings, and pending fee/spread changes. Admins edit (audited); a fee or spread change waits in
 * "Pending changes" for a different admin's approval.
 */
export function SettingsPage() {
  const { t } = useTranslation('admin');
  return (
    <>
      <PageTitle>{t('settings.title')}</PageTitle>
      <Tabs
        destroyOnHidden
        items={[
          { key: 'limits', label: t('settings.limitsTab'), children: <LimitsTab /> },
          { key: 'networks', label: t('productSettings.networks'), children: <NetworksTab /> },
          { key: 'pairs', label: t('productSettings.pairs'), children: <PairsTab /> },
          { key: 'funds', label: t('fundProducts.tab'), children: <FundProductsTab /> },
          { key: 'loans', label: t('loanSettings.tab'), children: <LoanSettingsTab /> },
          { key: 'cards', label: t('cardSettings.tab'), children: <CardSettingsTab /> },
          { key: 'changes', label: t('productSettings.changes'), children: <PendingChangesTab /> },
        ]}
      />
    </>
  );
}

/** Withdrawal limits per identity level, edited by an admin (audited). */
function LimitsTab() {
  const { t, i18n } = useTranslation('admin');
  const limits = useWithdrawalLimits();
  const mayEdit = useMayCall(opsWalletEndpoints.setWithdrawalLimit);
  const [editing, setEditing] = useState<OpsWithdrawalLimit | null>(null);

  return (
    <>
      <Card title={t('settings.limits')}>
        {limits.isError && <QueryError error={limits.error} onRetry={() => void limits.refetch()} />}
        <Table<OpsWithdrawalLimit>
          rowKey="level"
          loading={limits.isFetching}
          dataSource={limits.data}
          pagination={false}
          columns={[
            {
              title: t('settings.level'),
              dataIndex: 'level',
              render: (level: number) => t('settings.levelName', { level }),
            },
            { title: t('settings.per24h'), dataIndex: 'usdPer24h', align: 'right' },
            { title: t('settings.perMonth'), dataIndex: 'usdPerMonth', align: 'right' },
            {
              title: t('settings.updated'),
              key: 'updated',
              render: (_, row) =>
                row.updatedAt ? `${row.updatedBy ?? ''} · ${formatDateTime(row.updatedAt, i18n.language)}` : '—',
            },
            ...(mayEdit
              ? [
                  {
                    title: t('common.actions'),
                    key: 'actions',
                    render: (_: unknown, row: OpsWithdrawalLimit) => (
                      <Button size="small" onClick={() => setEditing(row)}>
                        {t('settings.edit')}
                      </Button>
                    ),
                  },
                ]
              : []),
          ]}
        />
      </Card>
      <EditLimitModal limit={editing} onClose={() => setEditing(null)} />
    </>
  );
}
