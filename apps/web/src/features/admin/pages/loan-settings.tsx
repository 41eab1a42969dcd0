import {
  type LoanRiskLevels,
  type LoanSettingChange,
  loanSettingsEndpoints,
  type OpsLoanSettings,
} from '@meridian/contracts/loan-settings';
import { Alert, Button, Card, Descriptions, Form, Input, Modal, Space, Switch, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import {
  useDecideLoanSettingChange,
  useLoanSettings,
  useProposeLoanRisk,
  useUpdateLoanCoin,
  useUpdateLoanLimits,
  useUpdateLoanTerm,
} from '../api/loan-settings.ts';
import { useMayCall } from '../components/operator-context.tsx';
import { QueryError } from '../components/query-error.tsx';
import { formatDateTime } from '../lib/time.ts';

/** A percentage with at most 2 decimals (the server checks the ranges and the order). */
const PCT_PATTERN = /^\d{1,2}(\.\d{1,2})?$/;
/** An amount with at most `decimals` decimals. */
export const amountPattern = (decimals: number) => new RegExp(`^\\d{1,13}(\\.\\d{1,${decimals}})?$`);

/** The values of an `EditModal`'s fields, trimmed. */
export type Fields = Record<string, string>;
/** One text field of an `EditModal`. */
export interface FieldSpec {
  name: string;
  label: string;
  pattern: RegExp;
  suffix?: string;
}

/** One small form in a modal: the fields, their starting values, and what saving calls. */
export interface EditSpec {
  title: string;
  hint?: string;
  fields: FieldSpec[];
  initial: Fields;
  save: (values: Fields) => Promise<unknown>;
}

/** A modal of text fields (shared by the loan and card settings tabs); a server refusal names its field. */
export function EditModal({ spec, onClose }: { spec: EditSpec | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<Fields>();
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const close = () => {
    setError(null);
    onClose();
  };
  const submit = async () => {
    if (!spec) return;
    setError(null);
    const values = await form.validateFields();
    setIsSaving(true);
    try {
      await spec.save(Object.fromEntries(Object.entries(values).map(([key, value]) => [key, value.trim()])));
      close();
    } catch (failure) {
      if (failure instanceof ApiError)
        setError(
          applyServerErrors(
            form,
            failure.response,
            spec.fields.map((field) => field.name),
          ),
        );
    } finally {
      setIsSaving(false);
    }
  };
  return (
    <Modal
      open={spec !== null}
      title={spec?.title}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: isSaving }}
      onOk={() => void submit()}
      onCancel={close}
      destroyOnHidden
    >
      {spec?.hint && <Alert type="info" showIcon style={{ marginBottom: 16 }} title={spec.hint} />}
      {error && <Alert type="error" showIcon style={{ marginBottom: 16 }} title={error} />}
      <Form form={form} layout="vertical" preserve={false} initialValues={spec?.initial}>
        <Space wrap>
          {spec?.fields.map((field) => (
            <Form.Item
              key={field.name}
              name={field.name}
              label={field.label}
              rules={[
                { required: true, whitespace: true, message: t('common.required') },
                { pattern: field.pattern, message: t('loanSettings.invalid') },
              ]}
            >
              <Input inputMode="decimal" suffix={field.suffix} style={{ width: 160 }} />
            </Form.Item>
          ))}
        </Space>
      </Form>
    </Modal>
  );
}

const levelsText = (levels: LoanRiskLevels) =>
  `${levels.initialLtvPct} / ${levels.marginCallLtvPct} / ${levels.liquidationLtvPct} % · ${levels.liquidationFeePct} %`;

/**
 * Settings tab "Loan settings" (docs/back-office.md "Loan
 * settings"): terms with their APR, coins with their minimum, the per-user maximum — an admin changes
 * these at once (audited with before and after); the LTV levels and the liquidation fee are proposed
 * and apply when a different admin approves.
 */
export function LoanSettingsTab() {
  const { t, i18n } = useTranslation('admin');
  const settings = useLoanSettings();
  const updateTerm = useUpdateLoanTerm();
  const updateCoin = useUpdateLoanCoin();
  const updateLimits = useUpdateLoanLimits();
  const propose = useProposeLoanRisk();
  const decide = useDecideLoanSettingChange();
  const mayEditTerm = useMayCall(loanSettingsEndpoints.updateLoanTerm);
  const mayEditCoin = useMayCall(loanSettingsEndpoints.updateLoanCoin);
  const mayEditLimits = useMayCall(loanSettingsEndpoints.updateLoanLimits);
  const mayPropose = useMayCall(loanSettingsEndpoints.proposeLoanRisk);
  const mayDecide = useMayCall(loanSettingsEndpoints.approveLoanSettingChange);
  const [editing, setEditing] = useState<EditSpec | null>(null);
  const [decideError, setDecideError] = useState<string | null>(null);
  const data: OpsLoanSettings | undefined = settings.data;
  const pct = (name: string, label: string): FieldSpec => ({ name, label, pattern: PCT_PATTERN, suffix: '%' });

  const decideChange = async (id: number, decision: 'approve' | 'reject') => {
    setDecideError(null);
    try {
      await decide.mutateAsync({ id, decision });
    } catch (failure) {
      if (failure instanceof ApiError) setDecideError(failure.message);
    }
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      {settings.isError && <QueryError error={settings.error} onRetry={() => void settings.refetch()} />}
      <Card title={t('loanSettings.terms')}>
        <Table
          rowKey="termDays"
          loading={settings.isFetching}
          dataSource={data?.terms}
          pagination={false}
          scroll={{ x: 480 }}
          columns={[
            { title: t('loanSettings.termDays'), dataIndex: 'termDays' },
            {
              title: t('loanSettings.apr'),
              dataIndex: 'annualRatePct',
              align: 'right',
              render: (apr: string) => `${apr} %`,
            },
            {
              title: t('loanSettings.enabled'),
              dataIndex: 'isEnabled',
              render: (isEnabled: boolean, row) => (
                <Switch
                  checked={isEnabled}
                  disabled={!mayEditTerm}
                  aria-label={t('loanSettings.enabled')}
                  loading={updateTerm.isPending && updateTerm.variables?.termDays === row.termDays}
                  onChange={(checked) => updateTerm.mutate({ termDays: row.termDays, isEnabled: checked })}
                />
              ),
            },
            {
              title: t('common.actions'),
              key: 'actions',
              render: (_, row) =>
                mayEditTerm && (
                  <Button
                    size="small"
                    onClick={() =>
                      setEditing({
                        title: t('loanSettings.editApr', { days: row.termDays }),
                        hint: t('loanSettings.aprHint'),
                        fields: [pct('annualRatePct', t('loanSettings.apr'))],
                        initial: { annualRatePct: row.annualRatePct },
                        save: (values) =>
                          updateTerm.mutateAsync({ termDays: row.termDays, annualRatePct: values.annualRatePct! }),
                      })
                    }
                  >
                    {t('loanSettings.edit')}
                  </Button>
                ),
            },
          ]}
        />
      </Card>

      <Card title={t('loanSettings.risk')}>
        {mayPropose && data && (
          <Button
            style={{ marginBottom: 16 }}
            onClick={() =>
              setEditing({
                title: t('loanSettings.proposeTitle'),
                hint: t('loanSettings.proposeHint'),
                fields: [
                  pct('initialLtvPct', t('loanSettings.initialLtv')),
                  pct('marginCallLtvPct', t('loanSettings.marginCallLtv')),
                  pct('liquidationLtvPct', t('loanSettings.liquidationLtv')),
                  pct('liquidationFeePct', t('loanSettings.liquidationFee')),
                ],
                initial: {
                  initialLtvPct: data.initialLtvPct,
                  marginCallLtvPct: data.marginCallLtvPct,
                  liquidationLtvPct: data.liquidationLtvPct,
                  liquidationFeePct: data.liquidationFeePct,
                },
                save: (values) =>
                  propose.mutateAsync({
                    initialLtvPct: values.initialLtvPct!,
                    marginCallLtvPct: values.marginCallLtvPct!,
                    liquidationLtvPct: values.liquidationLtvPct!,
                    liquidationFeePct: values.liquidationFeePct!,
                  }),
              })
            }
          >
            {t('loanSettings.propose')}
          </Button>
        )}
        {data && (
          <Descriptions
            bordered
            size="small"
            column={{ xs: 1, md: 2 }}
            items={[
              { key: 'initial', label: t('loanSettings.initialLtv'), children: `${data.initialLtvPct} %` },
              { key: 'marginCall', label: t('loanSettings.marginCallLtv'), children: `${data.marginCallLtvPct} %` },
              { key: 'liquidation', label: t('loanSettings.liquidationLtv'), children: `${data.liquidationLtvPct} %` },
              { key: 'fee', label: t('loanSettings.liquidationFee'), children: `${data.liquidationFeePct} %` },
              {
                key: 'alerts',
                label: t('loanSettings.alerts'),
                children: data.alertLtvPcts.map((level) => `${level} %`).join(', '),
              },
              {
                key: 'max',
                label: t('loanSettings.maxOutstanding'),
                children: (
                  <Space>
                    <span>${data.maxOutstandingUsd}</span>
                    {mayEditLimits && (
                      <Button
                        size="small"
                        onClick={() =>
                          setEditing({
                            title: t('loanSettings.maxOutstanding'),
                            fields: [
                              {
                                name: 'maxOutstandingUsd',
                                label: t('loanSettings.maxOutstanding'),
                                pattern: amountPattern(2),
                                suffix: 'USD',
                              },
                            ],
                            initial: { maxOutstandingUsd: data.maxOutstandingUsd },
                            save: (values) =>
                              updateLimits.mutateAsync({ maxOutstandingUsd: values.maxOutstandingUsd! }),
                          })
                        }
                      >
                        {t('loanSettings.edit')}
                      </Button>
                    )}
                  </Space>
                ),
              },
            ]}
          />
        )}
      </Card>

      <Card title={t('loanSettings.coins')}>
        <Table
          rowKey="coin"
          loading={settings.isFetching}
          dataSource={data?.coins}
          pagination={false}
          scroll={{ x: 480 }}
          columns={[
            { title: t('loanSettings.coin'), dataIndex: 'coin' },
            { title: t('loanSettings.minPrincipal'), dataIndex: 'minPrincipal', align: 'right' },
            {
              title: t('loanSettings.enabled'),
              dataIndex: 'isEnabled',
              render: (isEnabled: boolean, row) => (
                <Switch
                  checked={isEnabled}
                  disabled={!mayEditCoin}
                  aria-label={t('loanSettings.enabled')}
                  loading={updateCoin.isPending && updateCoin.variables?.coin === row.coin}
                  onChange={(checked) => updateCoin.mutate({ coin: row.coin, isEnabled: checked })}
                />
              ),
            },
            {
              title: t('common.actions'),
              key: 'actions',
              render: (_, row) =>
                mayEditCoin && (
                  <Button
                    size="small"
                    onClick={() =>
                      setEditing({
                        title: t('loanSettings.minPrincipalOf', { coin: row.coin }),
                        fields: [
                          {
                            name: 'minPrincipal',
                            label: t('loanSettings.minPrincipal'),
                            pattern: amountPattern(6),
                            suffix: row.coin,
                          },
                        ],
                        initial: { minPrincipal: row.minPrincipal },
                        save: (values) =>
                          updateCoin.mutateAsync({ coin: row.coin, minPrincipal: values.minPrincipal! }),
                      })
                    }
                  >
                    {t('loanSettings.edit')}
                  </Button>
                ),
            },
          ]}
        />
      </Card>

      <Card title={t('loanSettings.changes')}>
        <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('loanSettings.levelsHint')} />
        {decideError && <Alert type="error" showIcon style={{ marginBottom: 16 }} title={decideError} />}
        <Table<LoanSettingChange>
          rowKey="id"
          loading={settings.isFetching}
          dataSource={data?.changes}
          pagination={false}
          scroll={{ x: 1100 }}
          locale={{ emptyText: t('loanSettings.noChanges') }}
          columns={[
            { title: t('common.id'), dataIndex: 'id' },
            { title: t('loanSettings.levels'), key: 'before', render: (_, row) => levelsText(row.before) },
            { title: t('loanSettings.proposedLevels'), key: 'after', render: (_, row) => levelsText(row.after) },
            {
              title: t('common.status'),
              dataIndex: 'status',
              render: (status: string) => (
                <Tag color={status === 'applied' ? 'green' : status === 'rejected' ? 'default' : 'orange'}>
                  {t(`loanSettings.status.${status}`)}
                </Tag>
              ),
            },
            {
              title: t('loanSettings.proposedBy'),
              key: 'proposed',
              width: 240,
              render: (_, row) => `${row.proposedBy} · ${formatDateTime(row.proposedAt, i18n.language)}`,
            },
            {
              title: t('loanSettings.decidedBy'),
              key: 'decided',
              width: 240,
              render: (_, row) =>
                row.decidedAt ? `${row.decidedBy ?? ''} · ${formatDateTime(row.decidedAt, i18n.language)}` : '—',
            },
            {
              title: t('common.actions'),
              key: 'actions',
              fixed: 'right',
              width: 200,
              render: (_, row) =>
                mayDecide &&
                row.status === 'proposed' && (
                  <Space>
                    <Button size="small" type="primary" onClick={() => void decideChange(row.id, 'approve')}>
                      {t('loanSettings.approve')}
                    </Button>
                    <Button size="small" danger onClick={() => void decideChange(row.id, 'reject')}>
                      {t('loanSettings.reject')}
                    </Button>
                  </Space>
                ),
            },
          ]}
        />
      </Card>
      <EditModal spec={editing} onClose={() => setEditing(null)} />
    </Space>
  );
}
