import {
  type LoanRiskLevels,
  type LoanSettingChange,
  loanSettingsEndpoints,
  type OpsLoanSettings,
} from '@meridian/contracts/loan-settings';
import { Button, Card, Space, Switch, Table } from 'antd';
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
  const data: OpsLoanSettings | undefined = settings.data;
  const pct = (name: string, label: string): FieldSpec => ({ name, label, pattern: PCT_PATTERN, suffix: '%' });
  /** The risky numbers, proposed together (the field list of the four-eyes section). */
  const riskFields: SettingField[] | undefined = data && [
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

      <FourEyesSection
        title={t('loanSettings.risk')}
        testId="loan-risk"
        fields={riskFields}
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
                          save: (values) => updateLimits.mutateAsync({ maxOutstandingUsd: values.maxOutstandingUsd! }),
                        })
                      }
                    >
                      {t('loanSettings.edit')}
                    </Button>
                  )}
                </Space>
              ),
            },
          ]
        }
      />

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
