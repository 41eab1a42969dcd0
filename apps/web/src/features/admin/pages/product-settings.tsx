import {
  backOfficeSettingsEndpoints,
  type OpsNetworkSetting,
  type OpsPairSetting,
  SPREAD_BPS_MAX,
  type SettingChange,
} from '@meridian/contracts/back-office-settings';
import { Button, Card, Form, Input, InputNumber, Modal, Switch, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useDecideSettingChange,
  useNetworkSettings,
  usePairSettings,
  useSettingChanges,
  useUpdateNetworkSetting,
  useUpdatePairSetting,
} from '../api/product-settings.ts';
import { useMayCall } from '../components/operator-context.tsx';
import { QueryError } from '../components/query-error.tsx';
import { ProposalsCard } from '../components/settings-form.tsx';

/** A non-negative decimal string (the server checks the coin's precision and names the field). */
const DECIMAL_PATTERN = /^\d+(\.\d+)?$/;

/** Only the fields whose value differs from the row's: what a PUT should carry. */
function changedFields<T extends object>(row: T, values: Partial<T>): Partial<T> {
  return Object.fromEntries(
    Object.entries(values).filter(([key, value]) => value !== undefined && row[key as keyof T] !== value),
  ) as Partial<T>;
}

type NetworkForm = Pick<
  OpsNetworkSetting,
  'isDepositEnabled' | 'isWithdrawEnabled' | 'withdrawMin' | 'withdrawMax' | 'withdrawFee' | 'confirmationsRequired'
>;

/** The edit modal of one network; a changed fee is proposed (a second admin approves it). */
function EditNetworkModal({ row, onClose }: { row: OpsNetworkSetting | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<NetworkForm>();
  const update = useUpdateNetworkSetting();
  const submit = async () => {
    const values = await form.validateFields();
    if (!row) return;
    try {
      await update.mutateAsync({ coin: row.coinCode, network: row.network, body: changedFields(row, values) });
      onClose();
    } catch {
      // Shown by the HTTP client.
    }
  };
  const amountRules = [{ required: true, pattern: DECIMAL_PATTERN, message: t('productSettings.amountInvalid') }];
  return (
    <Modal
      open={row !== null}
      title={row ? `${row.coinCode} · ${row.network}` : ''}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: update.isPending }}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false} initialValues={row ?? undefined}>
        <Form.Item name="isDepositEnabled" label={t('productSettings.deposit')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="isWithdrawEnabled" label={t('productSettings.withdraw')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="withdrawMin" label={t('productSettings.withdrawMin')} rules={amountRules}>
          <Input inputMode="decimal" suffix={row?.coinCode} />
        </Form.Item>
        <Form.Item name="withdrawMax" label={t('productSettings.withdrawMax')} rules={amountRules}>
          <Input inputMode="decimal" suffix={row?.coinCode} />
        </Form.Item>
        <Form.Item
          name="withdrawFee"
          label={t('productSettings.withdrawFee')}
          extra={t('productSettings.needsApproval')}
          rules={amountRules}
        >
          <Input inputMode="decimal" suffix={row?.coinCode} />
        </Form.Item>
        <Form.Item name="confirmationsRequired" label={t('productSettings.confirmations')} rules={[{ required: true }]}>
          <InputNumber min={0} max={1000} precision={0} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Settings tab "Networks": every coin network; admins edit one in a modal. */
export function NetworksTab() {
  const { t } = useTranslation('admin');
  const networks = useNetworkSettings();
  const mayEdit = useMayCall(backOfficeSettingsEndpoints.updateNetworkSetting);
  const [editing, setEditing] = useState<OpsNetworkSetting | null>(null);
  const onOff = (value: boolean) => (
    <Tag color={value ? 'green' : 'red'}>{t(value ? 'productSettings.on' : 'productSettings.off')}</Tag>
  );
  return (
    <Card>
      {networks.isError && <QueryError error={networks.error} onRetry={() => void networks.refetch()} />}
      <Table<OpsNetworkSetting>
        rowKey={(row) => `${row.coinCode}/${row.network}`}
        loading={networks.isFetching}
        dataSource={networks.data}
        pagination={false}
        columns={[
          { title: t('productSettings.coin'), dataIndex: 'coinCode' },
          { title: t('productSettings.network'), dataIndex: 'network' },
          { title: t('productSettings.deposit'), dataIndex: 'isDepositEnabled', render: onOff },
          { title: t('productSettings.withdraw'), dataIndex: 'isWithdrawEnabled', render: onOff },
          { title: t('productSettings.withdrawMin'), dataIndex: 'withdrawMin', align: 'right' },
          { title: t('productSettings.withdrawMax'), dataIndex: 'withdrawMax', align: 'right' },
          { title: t('productSettings.withdrawFee'), dataIndex: 'withdrawFee', align: 'right' },
          { title: t('productSettings.confirmations'), dataIndex: 'confirmationsRequired', align: 'right' },
          ...(mayEdit
            ? [
                {
                  title: t('common.actions'),
                  key: 'actions',
                  render: (_: unknown, row: OpsNetworkSetting) => (
                    <Button size="small" onClick={() => setEditing(row)}>
                      {t('settings.edit')}
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
      <EditNetworkModal row={editing} onClose={() => setEditing(null)} />
    </Card>
  );
}

type PairForm = Pick<OpsPairSetting, 'isEnabled' | 'spreadBps' | 'fromMin' | 'fromMax'>;

/** The edit modal of one pair; a changed spread is proposed (a second admin approves it). */
function EditPairModal({ row, onClose }: { row: OpsPairSetting | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<PairForm>();
  const update = useUpdatePairSetting();
  const submit = async () => {
    const values = await form.validateFields();
    if (!row) return;
    try {
      await update.mutateAsync({ pair: row.pair, body: changedFields(row, values) });
      onClose();
    } catch {
      // Shown by the HTTP client.
    }
  };
  const amountRules = [{ required: true, pattern: DECIMAL_PATTERN, message: t('productSettings.amountInvalid') }];
  return (
    <Modal
      open={row !== null}
      title={row?.pair ?? ''}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: update.isPending }}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false} initialValues={row ?? undefined}>
        <Form.Item name="isEnabled" label={t('productSettings.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item
          name="spreadBps"
          label={t('productSettings.spreadBps')}
          extra={t('productSettings.needsApproval')}
          rules={[{ required: true }]}
        >
          <InputNumber min={0} max={SPREAD_BPS_MAX} precision={0} />
        </Form.Item>
        <Form.Item name="fromMin" label={t('productSettings.fromMin')} rules={amountRules}>
          <Input inputMode="decimal" suffix={row?.from} />
        </Form.Item>
        <Form.Item name="fromMax" label={t('productSettings.fromMax')} rules={amountRules}>
          <Input inputMode="decimal" suffix={row?.from} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Settings tab "Swap pairs": every pair; admins edit one in a modal. */
export function PairsTab() {
  const { t } = useTranslation('admin');
  const pairs = usePairSettings();
  const mayEdit = useMayCall(backOfficeSettingsEndpoints.updatePairSetting);
  const [editing, setEditing] = useState<OpsPairSetting | null>(null);
  return (
    <Card>
      {pairs.isError && <QueryError error={pairs.error} onRetry={() => void pairs.refetch()} />}
      <Table<OpsPairSetting>
        rowKey="pair"
        loading={pairs.isFetching}
        dataSource={pairs.data}
        pagination={false}
        columns={[
          { title: t('productSettings.pair'), dataIndex: 'pair' },
          {
            title: t('productSettings.enabled'),
            dataIndex: 'isEnabled',
            render: (value: boolean) => (
              <Tag color={value ? 'green' : 'red'}>{t(value ? 'productSettings.on' : 'productSettings.off')}</Tag>
            ),
          },
          { title: t('productSettings.spreadBps'), dataIndex: 'spreadBps', align: 'right' },
          {
            title: t('productSettings.fromMin'),
            key: 'fromMin',
            align: 'right',
            render: (_, row) => `${row.fromMin} ${row.from}`,
          },
          {
            title: t('productSettings.fromMax'),
            key: 'fromMax',
            align: 'right',
            render: (_, row) => `${row.fromMax} ${row.from}`,
          },
          ...(mayEdit
            ? [
                {
                  title: t('common.actions'),
                  key: 'actions',
                  render: (_: unknown, row: OpsPairSetting) => (
                    <Button size="small" onClick={() => setEditing(row)}>
                      {t('settings.edit')}
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
      <EditPairModal row={editing} onClose={() => setEditing(null)} />
    </Card>
  );
}

/**
 * Settings tab "Pending changes": the proposed changes of every kind (fees, spreads, loan levels,
 * card fees and rates, fund tiers), each kind labelled; admins approve (not their own) or reject the
 * fees and spreads here, the other kinds on their own tabs.
 */
export function PendingChangesTab() {
  const { t } = useTranslation('admin');
  const changes = useSettingChanges();
  const decide = useDecideSettingChange();
  const mayApprove = useMayCall(backOfficeSettingsEndpoints.approveSettingChange);
  return (
    <>
      {changes.isError && <QueryError error={changes.error} onRetry={() => void changes.refetch()} />}
      <ProposalsCard<SettingChange>
        title={t('productSettings.changes')}
        hint={t('productSettings.allChangesHint')}
        testId="product-settings-changes"
        rows={changes.data}
        loading={changes.isFetching}
        emptyText={t('productSettings.noChanges')}
        beforeTitle={t('productSettings.before')}
        afterTitle={t('productSettings.after')}
        kindColumn={{
          title: t('productSettings.kind'),
          render: (row) => {
            const kind = t(`productSettings.kinds.${row.kind}`, { defaultValue: row.kind });
            return row.targetKey ? `${kind} · ${row.targetKey}` : kind;
          },
        }}
        valuesText={(row, side) => row[side]}
        // Fees and spreads are decided here; the other kinds on their own tabs (their routes).
        mayDecide={(row) => mayApprove && (row.targetKind === 'network' || row.targetKind === 'pair')}
        decide={(input) => decide.mutateAsync(input)}
      />
    </>
  );
}
