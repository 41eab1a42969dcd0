import {
  type LoanRiskLevels,
  type LoanSettingChange,
  loanSettingsEndpoints,
  type OpsLoanSettings,
} from '@meridian/contracts/loan-settings';
import type { TFunction } from 'i18next';
import { Card, Space, Switch, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
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
import {
  amountPattern,
  EditableValue,
  EditModal,
  type EditSpec,
  type FieldSpec,
  FourEyesSection,
  PCT_PATTERN,
  ProposalsCard,
  type SettingField,
  WHOLE_PATTERN,
} from '../components/settings-form.tsx';

/** One line of a proposal's numbers (the cure window and hard level when the proposal has them). */
const levelsText = (levels: LoanRiskLevels) =>
  [
    `${levels.initialLtvPct} / ${levels.marginCallLtvPct} / ${levels.liquidationLtvPct} %`,
    `${levels.liquidationFeePct} %`,
    ...(levels.cureWindowMinutes === undefined ? [] : [`${levels.cureWindowMinutes} min`]),
    ...(levels.hardLiquidationLtvPct === undefined ? [] : [`${levels.hardLiquidationLtvPct} %`]),
  ].join(' · ');

const pct = (name: string, label: string): FieldSpec => ({ name, label, pattern: PCT_PATTERN, suffix: '%' });

/** The loan terms with their APR, each switched or its APR changed at once (new loans use them). */
function TermsCard(props: { data: OpsLoanSettings | undefined; loading: boolean; onEdit: (spec: EditSpec) => void }) {
  const { t } = useTranslation('admin');
  const updateTerm = useUpdateLoanTerm();
  const mayEditTerm = useMayCall(loanSettingsEndpoints.updateLoanTerm);
  const aprSpec = (row: OpsLoanSettings['terms'][number]): EditSpec => ({
    title: t('loanSettings.editApr', { days: row.termDays }),
    hint: t('loanSettings.aprHint'),
    fields: [pct('annualRatePct', t('loanSettings.apr'))],
    initial: { annualRatePct: row.annualRatePct },
    save: (values) => updateTerm.mutateAsync({ termDays: row.termDays, annualRatePct: values.annualRatePct! }),
  });
  return (
    <Card title={t('loanSettings.terms')}>
      <Table
        rowKey="termDays"
        loading={props.loading}
        dataSource={props.data?.terms}
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
            render: (_, row) => (
              <EditableValue
                mayEdit={mayEditTerm}
                onEdit={props.onEdit}
                label={t('loanSettings.edit')}
                spec={() => aprSpec(row)}
              >
                {null}
              </EditableValue>
            ),
          },
        ]}
      />
    </Card>
  );
}

/** The loan coins with their least principal, each switched or its minimum changed at once. */
function CoinsCard(props: { data: OpsLoanSettings | undefined; loading: boolean; onEdit: (spec: EditSpec) => void }) {
  const { t } = useTranslation('admin');
  const updateCoin = useUpdateLoanCoin();
  const mayEditCoin = useMayCall(loanSettingsEndpoints.updateLoanCoin);
  const minSpec = (row: OpsLoanSettings['coins'][number]): EditSpec => ({
    title: t('loanSettings.minPrincipalOf', { coin: row.coin }),
    fields: [
      { name: 'minPrincipal', label: t('loanSettings.minPrincipal'), pattern: amountPattern(6), suffix: row.coin },
    ],
    initial: { minPrincipal: row.minPrincipal },
    save: (values) => updateCoin.mutateAsync({ coin: row.coin, minPrincipal: values.minPrincipal! }),
  });
  return (
    <Card title={t('loanSettings.coins')}>
      <Table
        rowKey="coin"
        loading={props.loading}
        dataSource={props.data?.coins}
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
            render: (_, row) => (
              <EditableValue
                mayEdit={mayEditCoin}
                onEdit={props.onEdit}
                label={t('loanSettings.edit')}
                spec={() => minSpec(row)}
              >
                {null}
              </EditableValue>
            ),
          },
        ]}
      />
    </Card>
  );
}

/** The risky numbers, proposed together (the field list of the four-eyes section). */
function riskFields(t: TFunction<'admin'>, data: OpsLoanSettings): SettingField[] {
  return [
    { ...pct('initialLtvPct', t('loanSettings.initialLtv')), value: data.initialLtvPct },
    { ...pct('marginCallLtvPct', t('loanSettings.marginCallLtv')), value: data.marginCallLtvPct },
    { ...pct('liquidationLtvPct', t('loanSettings.liquidationLtv')), value: data.liquidationLtvPct },
    { ...pct('liquidationFeePct', t('loanSettings.liquidationFee')), value: data.liquidationFeePct },
    {
      name: 'cureWindowMinutes',
      label: t('loanSettings.cureWindow'),
      pattern: WHOLE_PATTERN,
      suffix: t('loanSettings.minutes'),
      value: String(data.cureWindowMinutes),
    },
    { ...pct('hardLiquidationLtvPct', t('loanSettings.hardLiquidationLtv')), value: data.hardLiquidationLtvPct },
  ];
}

/**
 * Settings tab "Loan settings" (docs/back-office.md "Loan
 * settings"): terms with their APR, coins with their minimum, the per-user maximum — an admin changes
 * these at once (audited with before and after); the LTV levels, the liquidation fee, the margin-call
 * cure window and the hard liquidation level are proposed (`FourEyesSection`, one field list) and
 * apply when a different admin approves (`ProposalsCard`).
 */
export function LoanSettingsTab() {
  const { t } = useTranslation('admin');
  const settings = useLoanSettings();
  const updateLimits = useUpdateLoanLimits();
  const propose = useProposeLoanRisk();
  const decide = useDecideLoanSettingChange();
  const mayEditLimits = useMayCall(loanSettingsEndpoints.updateLoanLimits);
  const mayPropose = useMayCall(loanSettingsEndpoints.proposeLoanRisk);
  const mayDecide = useMayCall(loanSettingsEndpoints.approveLoanSettingChange);
  const [editing, setEditing] = useState<EditSpec | null>(null);
  const data: OpsLoanSettings | undefined = settings.data;
  const maxSpec = (settingsData: OpsLoanSettings): EditSpec => ({
    title: t('loanSettings.maxOutstanding'),
    fields: [
      {
        name: 'maxOutstandingUsd',
        label: t('loanSettings.maxOutstanding'),
        pattern: amountPattern(2),
        suffix: 'USD',
      },
    ],
    initial: { maxOutstandingUsd: settingsData.maxOutstandingUsd },
    save: (values) => updateLimits.mutateAsync({ maxOutstandingUsd: values.maxOutstandingUsd! }),
  });

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      {settings.isError && <QueryError error={settings.error} onRetry={() => void settings.refetch()} />}
      <TermsCard data={data} loading={settings.isFetching} onEdit={setEditing} />
      <FourEyesSection
        title={t('loanSettings.risk')}
        testId="loan-risk"
        fields={data && riskFields(t, data)}
        mayPropose={mayPropose}
        proposeLabel={t('loanSettings.propose')}
        proposeTitle={t('loanSettings.proposeTitle')}
        proposeHint={t('loanSettings.proposeHint')}
        onEdit={setEditing}
        propose={(values) =>
          propose.mutateAsync({
            initialLtvPct: values.initialLtvPct!,
            marginCallLtvPct: values.marginCallLtvPct!,
            liquidationLtvPct: values.liquidationLtvPct!,
            liquidationFeePct: values.liquidationFeePct!,
            cureWindowMinutes: Number(values.cureWindowMinutes),
            hardLiquidationLtvPct: values.hardLiquidationLtvPct!,
          })
        }
        extraItems={
          data && [
            {
              key: 'alerts',
              label: t('loanSettings.alerts'),
              children: data.alertLtvPcts.map((level) => `${level} %`).join(', '),
            },
            {
              key: 'max',
              label: t('loanSettings.maxOutstanding'),
              children: (
                <EditableValue
                  mayEdit={mayEditLimits}
                  onEdit={setEditing}
                  label={t('loanSettings.edit')}
                  spec={() => maxSpec(data)}
                >
                  <span>${data.maxOutstandingUsd}</span>
                </EditableValue>
              ),
            },
          ]
        }
      />
      <CoinsCard data={data} loading={settings.isFetching} onEdit={setEditing} />
      <ProposalsCard<LoanSettingChange>
        title={t('loanSettings.changes')}
        hint={t('loanSettings.levelsHint')}
        testId="loan-risk-changes"
        rows={data?.changes}
        loading={settings.isFetching}
        emptyText={t('loanSettings.noChanges')}
        beforeTitle={t('loanSettings.levels')}
        afterTitle={t('loanSettings.proposedLevels')}
        valuesText={(row, side) => levelsText(row[side])}
        mayDecide={mayDecide}
        decide={(input) => decide.mutateAsync(input)}
      />
      <EditModal spec={editing} onClose={() => setEditing(null)} />
    </Space>
  );
}
