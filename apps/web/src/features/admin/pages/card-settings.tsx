import {
  CARD_RATE_CURRENCIES,
  type CardFees,
  type CardFxRates,
  type CardSettingChange,
  cardSettingsEndpoints,
  type OpsCardSettings,
  type UpdateCardIssuingBody,
  type UpdateCardTopUpBody,
} from '@meridian/contracts/card-settings';
import { CARD_CURRENCIES, type CardCurrency } from '@meridian/contracts/cards';
import { ASSET_PRECISION } from '@meridian/contracts/money';
import { Alert, Button, Card, Descriptions, Space, Switch, Table, Tag } from 'antd';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import {
  useCardSettings,
  useDecideCardSettingChange,
  useProposeCardFees,
  useProposeCardFxRates,
  useUpdateCardIssuing,
  useUpdateCardLimits,
  useUpdateCardTopUp,
} from '../api/card-settings.ts';
import { useMayCall } from '../components/operator-context.tsx';
import { QueryError } from '../components/query-error.tsx';
import { formatDateTime } from '../lib/time.ts';
import {
  amountPattern,
  EditableValue,
  EditModal,
  type EditSpec,
  FourEyesSection,
  ProposalsCard,
  type SettingField,
} from '../components/settings-form.tsx';

/** A whole number of cards (the server checks 0–20). */
const COUNT_PATTERN = /^\d{1,2}$/;
/** A rate with at most 8 decimals (the server checks the range). */
const RATE_PATTERN = /^\d{1,7}(\.\d{1,8})?$/;
/** An ISO 8601 instant with its zone ("2027-06-30T16:00:00Z"; the server checks it). */
const INSTANT_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

const feesText = (fees: CardFees) => `${fees.physicalFeeUsdt} / ${fees.virtualFeeUsdt} USDT`;
const ratesText = (rates: CardFxRates) =>
  CARD_RATE_CURRENCIES.map((currency) => `${currency} ${rates[currency]}`).join(' · ');
/** What a proposal held or would set, in one line. */
const valuesText = (change: CardSettingChange, side: 'before' | 'after') =>
  change.kind === 'fees' ? feesText(change[side]) : ratesText(change[side]);

/** One row of the currencies table: whether virtual cards are issued in it, its default limits and its rate. */
interface CurrencyRow {
  currency: CardCurrency;
  isVirtualOffered: boolean;
  perTransaction: string;
  daily: string;
  monthly: string;
  unitsPerUsd: string;
}

function currencyRows(data: OpsCardSettings): CurrencyRow[] {
  return CARD_CURRENCIES.map((currency) => {
    const limits = data.defaultLimits.find((row) => row.currency === currency);
    return {
      currency,
      isVirtualOffered: data.virtualCurrencies.includes(currency),
      perTransaction: limits?.perTransaction ?? '—',
      daily: limits?.daily ?? '—',
      monthly: limits?.monthly ?? '—',
      unitsPerUsd: data.fxRates.find((row) => row.currency === currency)?.unitsPerUsd ?? '—',
    };
  });
}

/** Runs a change at once, showing its refusal above the tab (`run`). */
type Run = (action: () => Promise<unknown>) => Promise<void>;

/** The edit forms of the issuing card's values changed at once. */
function issuingSpecs(
  t: TFunction<'admin'>,
  data: OpsCardSettings,
  saves: {
    issuing: (body: UpdateCardIssuingBody) => Promise<unknown>;
    topUp: (body: UpdateCardTopUpBody) => Promise<unknown>;
  },
) {
  return {
    physicalMax: (): EditSpec => ({
      title: t('cardSettings.physicalCardsMax'),
      hint: t('cardSettings.physicalCardsMaxHint'),
      fields: [{ name: 'physicalCardsMax', label: t('cardSettings.physicalCardsMax'), pattern: COUNT_PATTERN }],
      initial: { physicalCardsMax: String(data.physicalCardsMax) },
      save: (values) => saves.issuing({ physicalCardsMax: Number(values.physicalCardsMax) }),
    }),
    promotionDates: (): EditSpec => ({
      title: t('cardSettings.promotionDates'),
      hint: t('cardSettings.promotionDatesHint'),
      fields: [
        { name: 'promotionStartsAt', label: t('cardSettings.startsAt'), pattern: INSTANT_PATTERN },
        { name: 'promotionEndsAt', label: t('cardSettings.endsAt'), pattern: INSTANT_PATTERN },
      ],
      initial: { promotionStartsAt: data.promotionStartsAt ?? '', promotionEndsAt: data.promotionEndsAt ?? '' },
      save: (values) =>
        saves.issuing({ promotionStartsAt: values.promotionStartsAt!, promotionEndsAt: values.promotionEndsAt! }),
    }),
    topUp: (): EditSpec => ({
      title: t('cardSettings.topUpBounds'),
      hint: t('cardSettings.topUpHint'),
      fields: [
        { name: 'topUpMin', label: t('cardSettings.topUpMin'), pattern: amountPattern(6) },
        { name: 'topUpMax', label: t('cardSettings.topUpMax'), pattern: amountPattern(6) },
      ],
      initial: { topUpMin: data.topUpMin, topUpMax: data.topUpMax },
      save: (values) => saves.topUp({ topUpMin: values.topUpMin!, topUpMax: values.topUpMax! }),
    }),
  };
}

/** The issuing rules changed at once: physical cards per user, the promotion and its dates, the top-up bounds. */
function IssuingCard(props: {
  data: OpsCardSettings | undefined;
  mayEdit: boolean;
  onEdit: (spec: EditSpec) => void;
  run: Run;
}) {
  const { t, i18n } = useTranslation('admin');
  const updateIssuing = useUpdateCardIssuing();
  const updateTopUp = useUpdateCardTopUp();
  const { data, mayEdit, onEdit } = props;
  const dateTime = (at: string | null) => (at ? formatDateTime(at, i18n.language) : '—');
  const edit = { mayEdit, onEdit, label: t('cardSettings.edit') };
  const specs = data && issuingSpecs(t, data, { issuing: updateIssuing.mutateAsync, topUp: updateTopUp.mutateAsync });
  return (
    <Card title={t('cardSettings.issuing')}>
      {data && specs && (
        <Descriptions
          bordered
          size="small"
          column={{ xs: 1, md: 2 }}
          items={[
            {
              key: 'max',
              label: t('cardSettings.physicalCardsMax'),
              children: (
                <EditableValue {...edit} testId="card-settings-edit-physical-max" spec={specs.physicalMax}>
                  <span data-testid="card-settings-physical-max">{data.physicalCardsMax}</span>
                </EditableValue>
              ),
            },
            {
              key: 'promotion',
              label: t('cardSettings.promotion'),
              children: (
                <Space wrap>
                  <Switch
                    checked={data.isPromotionEnabled}
                    disabled={!mayEdit}
                    aria-label={t('cardSettings.promotion')}
                    loading={updateIssuing.isPending && updateIssuing.variables?.isPromotionEnabled !== undefined}
                    onChange={(checked) =>
                      void props.run(() => updateIssuing.mutateAsync({ isPromotionEnabled: checked }))
                    }
                  />
                  <Tag color={data.isPromotionOn ? 'green' : 'default'}>
                    {data.isPromotionOn ? t('cardSettings.promotionOn') : t('cardSettings.promotionOff')}
                  </Tag>
                </Space>
              ),
            },
            {
              key: 'dates',
              label: t('cardSettings.promotionDates'),
              children: (
                <EditableValue {...edit} testId="card-settings-edit-promotion" spec={specs.promotionDates}>
                  <span>
                    {dateTime(data.promotionStartsAt)} – {dateTime(data.promotionEndsAt)}
                  </span>
                </EditableValue>
              ),
            },
            {
              key: 'topUp',
              label: t('cardSettings.topUpBounds'),
              children: (
                <EditableValue {...edit} testId="card-settings-edit-top-up" spec={specs.topUp}>
                  <span>
                    {data.topUpMin} – {data.topUpMax}
                  </span>
                </EditableValue>
              ),
            },
            { key: 'eure', label: t('cardSettings.eure'), children: t('cardSettings.eureRate') },
          ]}
        />
      )}
    </Card>
  );
}

/** The currencies: virtual cards offered (at once), default limits of new cards (at once), the rate table (proposed). */
function CurrenciesCard(props: {
  data: OpsCardSettings | undefined;
  loading: boolean;
  mayEdit: boolean;
  onEdit: (spec: EditSpec) => void;
  run: Run;
}) {
  const { t } = useTranslation('admin');
  const updateIssuing = useUpdateCardIssuing();
  const updateLimits = useUpdateCardLimits();
  const proposeRates = useProposeCardFxRates();
  const mayProposeRates = useMayCall(cardSettingsEndpoints.proposeCardFxRates);
  const { data, mayEdit, onEdit } = props;
  const ratesSpec = (settings: OpsCardSettings): EditSpec => ({
    title: t('cardSettings.ratesTitle'),
    hint: t('cardSettings.ratesHint'),
    fields: CARD_RATE_CURRENCIES.map((currency) => ({
      name: currency,
      label: t('cardSettings.ratePer', { currency }),
      pattern: RATE_PATTERN,
    })),
    initial: Object.fromEntries(settings.fxRates.map((row) => [row.currency, row.unitsPerUsd])),
    save: (values) => proposeRates.mutateAsync({ EUR: values.EUR!, GBP: values.GBP!, JPY: values.JPY! }),
  });
  const limitsSpec = (row: CurrencyRow): EditSpec => ({
    title: t('cardSettings.limitsOf', { currency: row.currency }),
    hint: t('cardSettings.limitsHint'),
    fields: (['perTransaction', 'daily', 'monthly'] as const).map((name) => ({
      name,
      label: t(`cardSettings.${name}`),
      pattern: amountPattern(ASSET_PRECISION[row.currency]),
      suffix: row.currency,
    })),
    initial: { perTransaction: row.perTransaction, daily: row.daily, monthly: row.monthly },
    save: (values) =>
      updateLimits.mutateAsync({
        currency: row.currency,
        perTransaction: values.perTransaction!,
        daily: values.daily!,
        monthly: values.monthly!,
      }),
  });
  const offer = (currency: CardCurrency, checked: boolean) =>
    props.run(() =>
      updateIssuing.mutateAsync({
        virtualCurrencies: CARD_CURRENCIES.filter((each) =>
          each === currency ? checked : data!.virtualCurrencies.includes(each),
        ),
      }),
    );
  return (
    <Card
      title={t('cardSettings.currencies')}
      extra={
        data &&
        mayProposeRates && (
          <Button size="small" data-testid="card-settings-propose-rates" onClick={() => onEdit(ratesSpec(data))}>
            {t('cardSettings.editRates')}
          </Button>
        )
      }
    >
      <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('cardSettings.ratesFourEyes')} />
      <Table<CurrencyRow>
        rowKey="currency"
        loading={props.loading}
        dataSource={data ? currencyRows(data) : []}
        pagination={false}
        scroll={{ x: 900 }}
        columns={[
          { title: t('cardSettings.currency'), dataIndex: 'currency' },
          {
            title: t('cardSettings.virtualOffered'),
            dataIndex: 'isVirtualOffered',
            render: (isOffered: boolean, row) => (
              <Switch
                checked={isOffered}
                disabled={!mayEdit || !data}
                aria-label={t('cardSettings.virtualOfferedIn', { currency: row.currency })}
                onChange={(checked) => void offer(row.currency, checked)}
              />
            ),
          },
          { title: t('cardSettings.perTransaction'), dataIndex: 'perTransaction', align: 'right' },
          { title: t('cardSettings.daily'), dataIndex: 'daily', align: 'right' },
          { title: t('cardSettings.monthly'), dataIndex: 'monthly', align: 'right' },
          { title: t('cardSettings.unitsPerUsd'), dataIndex: 'unitsPerUsd', align: 'right' },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, row) => (
              <EditableValue
                mayEdit={mayEdit}
                onEdit={onEdit}
                label={t('cardSettings.editLimits')}
                testId={`card-settings-edit-limits-${row.currency}`}
                spec={() => limitsSpec(row)}
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

/**
 * Settings tab "Cards" (docs/back-office.md "Card
 * settings"): the physical production fee, the virtual issuing fee and the rate table are proposed and
 * apply when a different admin approves; the physical cards per user, the virtual-card promotion and
 * currencies, the top-up bounds and the default limits of new cards change at once (audited with
 * before and after). The cards module reads them for the next application, quote or card.
 */
export function CardSettingsTab() {
  const { t } = useTranslation('admin');
  const settings = useCardSettings();
  const propose = useProposeCardFees();
  const decide = useDecideCardSettingChange();
  const mayEdit = useMayCall(cardSettingsEndpoints.updateCardIssuing);
  const mayPropose = useMayCall(cardSettingsEndpoints.proposeCardFees);
  const mayDecide = useMayCall(cardSettingsEndpoints.approveCardSettingChange);
  const [editing, setEditing] = useState<EditSpec | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const data = settings.data;
  const run: Run = async (action) => {
    setActionError(null);
    try {
      await action();
    } catch (failure) {
      if (failure instanceof ApiError) setActionError(failure.message);
    }
  };
  const fee = (name: 'physicalFeeUsdt' | 'virtualFeeUsdt', label: string, value: string): SettingField => ({
    name,
    label,
    pattern: amountPattern(6),
    suffix: 'USDT',
    value,
  });

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      {settings.isError && <QueryError error={settings.error} onRetry={() => void settings.refetch()} />}
      {actionError && <Alert type="error" showIcon closable title={actionError} onClose={() => setActionError(null)} />}
      <FourEyesSection
        title={t('cardSettings.fees')}
        hint={t('cardSettings.feesHint')}
        testId="card-fees"
        fields={
          data && [
            fee('physicalFeeUsdt', t('cardSettings.physicalFee'), data.physicalFeeUsdt),
            fee('virtualFeeUsdt', t('cardSettings.virtualFee'), data.virtualFeeUsdt),
          ]
        }
        mayPropose={mayPropose}
        proposeLabel={t('cardSettings.propose')}
        proposeTitle={t('cardSettings.proposeTitle')}
        proposeHint={t('cardSettings.proposeHint')}
        onEdit={setEditing}
        propose={(values) =>
          propose.mutateAsync({ physicalFeeUsdt: values.physicalFeeUsdt!, virtualFeeUsdt: values.virtualFeeUsdt! })
        }
      />
      <IssuingCard data={data} mayEdit={mayEdit} onEdit={setEditing} run={run} />
      <CurrenciesCard data={data} loading={settings.isFetching} mayEdit={mayEdit} onEdit={setEditing} run={run} />
      <ProposalsCard<CardSettingChange>
        title={t('cardSettings.changes')}
        testId="card-settings-changes"
        rows={data?.changes}
        loading={settings.isFetching}
        emptyText={t('cardSettings.noChanges')}
        beforeTitle={t('cardSettings.before')}
        afterTitle={t('cardSettings.proposed')}
        kindColumn={{
          title: t('cardSettings.kind'),
          render: (row) => (row.kind === 'fees' ? t('cardSettings.kindFees') : t('cardSettings.kindFxRates')),
        }}
        valuesText={valuesText}
        mayDecide={mayDecide}
        decide={(input) => decide.mutateAsync(input)}
      />
      <EditModal spec={editing} onClose={() => setEditing(null)} />
    </Space>
  );
}
