import {
  type CreateFixedFundBody,
  FIXED_TERM_DAYS_MAX,
  type FundSettingChange,
  fundSettingsEndpoints,
  type FundTierValues,
  type OpsFundProduct,
  type UpdateRateTiersBody,
} from '@meridian/contracts/fund-settings';
import type { TFunction } from 'i18next';
import { Alert, Button, Card, Form, Input, InputNumber, Modal, Space, Switch, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import {
  useCreateFixedFund,
  useDecideFundSettingChange,
  useFundProducts,
  useFundSettingChanges,
  useProposeRateTiers,
  useSetFundActive,
} from '../api/fund-products.ts';
import { useMayCall } from '../components/operator-context.tsx';
import { QueryError } from '../components/query-error.tsx';
import {
  amountPattern,
  EditModal,
  type EditSpec,
  type FieldSpec,
  type Fields,
  PCT_PATTERN,
  ProposalsCard,
} from '../components/settings-form.tsx';

/** A USD amount with at most 2 decimals. */
const USD_PATTERN = amountPattern(2);
const CREATE_FIELDS = [
  'nameEn',
  'nameZhHk',
  'periodDays',
  'annualRatePct',
  'raiseStartDate',
  'raiseEndDate',
  'interestDate',
  'min',
  'max',
  'limit',
] as const;

/** Most tiers a product has (the contract's limit). */
const TIERS_MAX = 5;

/** One line of a proposal's tiers: "3.65 % ≤ 50000.00 · 2.00 %". */
const tiersText = (values: FundTierValues) =>
  values.tiers
    .map((tier) => (tier.upTo === null ? `${tier.annualRatePct} %` : `${tier.annualRatePct} % ≤ ${tier.upTo}`))
    .join(' · ');

/**
 * The tier form of a product as a field list of the shared settings form: a rate and a limit per
 * tier (`rate1`, `upTo1`, … `rate5`), empty from the first tier left out; the last tier filled has no
 * limit (its limit field is ignored).
 */
function tierFields(t: TFunction<'admin'>): FieldSpec[] {
  return Array.from({ length: TIERS_MAX }, (_, index) => {
    const n = index + 1;
    const rate: FieldSpec = {
      name: `rate${n}`,
      label: t('fundProducts.tierRateField', { n }),
      pattern: PCT_PATTERN,
      suffix: '%',
      optional: n > 1,
    };
    const upTo: FieldSpec = {
      name: `upTo${n}`,
      label: t('fundProducts.tierLimitField', { n }),
      pattern: amountPattern(2),
      suffix: 'USD',
      optional: true,
    };
    return n < TIERS_MAX ? [rate, upTo] : [rate];
  }).flat();
}

/** A product's tiers as the form's values. */
function tierValues(product: OpsFundProduct): Fields {
  return Object.fromEntries(
    product.tiers.flatMap((tier, index) => [
      [`rate${index + 1}`, tier.annualRatePct],
      [`upTo${index + 1}`, tier.upTo ?? ''],
    ]),
  );
}

/** The form's values as the proposal's tiers: the tiers with a rate, in order, the last without a limit. */
function tiersOf(values: Fields): UpdateRateTiersBody['tiers'] {
  const filled = Array.from({ length: TIERS_MAX }, (_, index) => index + 1).filter((n) => values[`rate${n}`]);
  return filled.map((n, index) => ({
    upTo: index === filled.length - 1 ? null : values[`upTo${n}`] || '',
    annualRatePct: values[`rate${n}`]!,
  }));
}

/** A new fixed fund: names in both languages, term, rate, raise window and amount rules. */
function CreateFixedFundModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<CreateFixedFundBody>();
  const create = useCreateFixedFund();
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  const submit = async () => {
    setError(null);
    const values = await form.validateFields();
    try {
      await create.mutateAsync(values);
      close();
    } catch (failure) {
      if (failure instanceof ApiError) setError(applyServerErrors(form, failure.response, CREATE_FIELDS));
    }
  };
  const required = { required: true, whitespace: true, message: t('common.required') };
  const usd = [required, { pattern: USD_PATTERN, message: t('wires.amountInvalid') }];
  return (
    <Modal
      open={open}
      title={t('fundProducts.createTitle')}
      okText={t('fundProducts.create')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: create.isPending }}
      onOk={() => void submit()}
      onCancel={close}
      destroyOnHidden
    >
      {error && <Alert type="error" showIcon style={{ marginBottom: 16 }} title={error} />}
      <Form<CreateFixedFundBody> form={form} layout="vertical" preserve={false}>
        <Form.Item name="nameEn" label={t('fundProducts.nameEn')} rules={[required]}>
          <Input maxLength={80} />
        </Form.Item>
        <Form.Item name="nameZhHk" label={t('fundProducts.nameZhHk')} rules={[required]}>
          <Input maxLength={80} />
        </Form.Item>
        <Space wrap>
          <Form.Item
            name="periodDays"
            label={t('fundProducts.periodDays')}
            rules={[{ required: true, message: t('common.required') }]}
          >
            <InputNumber min={1} max={FIXED_TERM_DAYS_MAX} precision={0} style={{ width: 140 }} />
          </Form.Item>
          <Form.Item
            name="annualRatePct"
            label={t('fundProducts.annualRatePct')}
            rules={[required, { pattern: PCT_PATTERN, message: t('fundProducts.rateInvalid') }]}
          >
            <Input inputMode="decimal" suffix="%" style={{ width: 140 }} />
          </Form.Item>
        </Space>
        <Space wrap>
          <Form.Item name="raiseStartDate" label={t('fundProducts.raiseStart')} rules={[required]}>
            <Input type="date" />
          </Form.Item>
          <Form.Item name="raiseEndDate" label={t('fundProducts.raiseEnd')} rules={[required]}>
            <Input type="date" />
          </Form.Item>
          <Form.Item name="interestDate" label={t('fundProducts.interestDate')} rules={[required]}>
            <Input type="date" />
          </Form.Item>
        </Space>
        <Space wrap>
          <Form.Item name="min" label={t('fundProducts.min')} rules={usd}>
            <Input inputMode="decimal" prefix="$" style={{ width: 140 }} />
          </Form.Item>
          <Form.Item name="max" label={t('fundProducts.max')} rules={usd}>
            <Input inputMode="decimal" prefix="$" style={{ width: 140 }} />
          </Form.Item>
          <Form.Item name="limit" label={t('fundProducts.limit')} rules={usd}>
            <Input inputMode="decimal" prefix="$" style={{ width: 140 }} />
          </Form.Item>
        </Space>
      </Form>
    </Modal>
  );
}

/** The products with their tiers, windows, amounts and holders; the open switch; the tier proposal button. */
function ProductsTable(props: { onEditTiers: (product: OpsFundProduct) => void }) {
  const { t } = useTranslation('admin');
  const products = useFundProducts();
  const setActive = useSetFundActive();
  const mayProposeTiers = useMayCall(fundSettingsEndpoints.proposeRateTiers);
  const maySetActive = useMayCall(fundSettingsEndpoints.setFundActive);
  return (
    <Card title={t('fundProducts.tab')}>
      {products.isError && <QueryError error={products.error} onRetry={() => void products.refetch()} />}
      <Table<OpsFundProduct>
        rowKey="productId"
        loading={products.isFetching}
        dataSource={products.data}
        pagination={false}
        scroll={{ x: 1200 }}
        columns={[
          {
            title: t('fundProducts.product'),
            key: 'product',
            render: (_, row) => (
              <Space orientation="vertical" size={0}>
                <span>{row.nameEn}</span>
                <span>{row.nameZhHk}</span>
                <Tag>{row.productId}</Tag>
              </Space>
            ),
          },
          {
            title: t('fundProducts.periodDays'),
            dataIndex: 'periodDays',
            render: (days: number) => (days < 0 ? t('fundProducts.flexible') : days),
          },
          {
            title: t('fundProducts.tiers'),
            key: 'tiers',
            render: (_, row) => (
              <Space orientation="vertical" size={0}>
                {row.tiers.map((tier, index) => (
                  <span key={index}>
                    {row.tiers.length === 1
                      ? t('fundProducts.tierFlat', { rate: tier.annualRatePct })
                      : tier.upTo === null
                        ? t('fundProducts.tierAbove', { rate: tier.annualRatePct })
                        : t('fundProducts.tierUpTo', { rate: tier.annualRatePct, upTo: tier.upTo })}
                  </span>
                ))}
              </Space>
            ),
          },
          {
            title: t('fundProducts.raiseWindow'),
            key: 'raise',
            render: (_, row) =>
              row.raiseStartDate ? `${row.raiseStartDate} – ${row.raiseEndDate} → ${row.maturityDate ?? ''}` : '—',
          },
          {
            title: t('fundProducts.amounts'),
            key: 'amounts',
            render: (_, row) => `${row.min} – ${row.max} (≤ ${row.limit})`,
          },
          {
            title: t('fundProducts.holders'),
            key: 'holders',
            align: 'right',
            render: (_, row) => `${row.holderCount} · $${row.heldTotal}`,
          },
          {
            title: t('fundProducts.open'),
            dataIndex: 'isActive',
            render: (isActive: boolean, row) => (
              <Switch
                checked={isActive}
                disabled={!maySetActive}
                loading={setActive.isPending && setActive.variables?.productId === row.productId}
                aria-label={t('fundProducts.open')}
                onChange={(checked) => setActive.mutate({ productId: row.productId, isActive: checked })}
              />
            ),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            fixed: 'right',
            render: (_, row) =>
              mayProposeTiers && (
                <Button
                  size="small"
                  data-testid={`fund-tiers-propose-${row.productId}`}
                  onClick={() => props.onEditTiers(row)}
                >
                  {t('fundProducts.editTiers')}
                </Button>
              ),
          },
        ]}
      />
    </Card>
  );
}

/**
 * Settings tab "Fund products" (docs/back-office.md "Fund products"): every product with its tiers,
 * raise window, amount rules and holders; an admin opens or closes a product to new subscriptions
 * and creates fixed funds at once, and proposes a product's rate tiers in the shared settings form
 * (`EditModal`, one field list): they apply (from the next daily accrual) when a different admin
 * approves (`ProposalsCard`). Each change is in the audit log with its before and after.
 */
export function FundProductsTab() {
  const { t } = useTranslation('admin');
  const changes = useFundSettingChanges();
  const propose = useProposeRateTiers();
  const decide = useDecideFundSettingChange();
  const mayDecide = useMayCall(fundSettingsEndpoints.approveFundSettingChange);
  const mayCreate = useMayCall(fundSettingsEndpoints.createFixedFund);
  const [editing, setEditing] = useState<EditSpec | null>(null);
  const [isCreating, setIsCreating] = useState(false);
  const editTiers = (product: OpsFundProduct) =>
    setEditing({
      title: t('fundProducts.tiersTitle', { name: product.nameEn }),
      hint: t('fundProducts.tiersHint'),
      fields: tierFields(t),
      initial: tierValues(product),
      save: (values) => propose.mutateAsync({ productId: product.productId, tiers: tiersOf(values) }),
    });

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      {mayCreate && (
        <Button type="primary" onClick={() => setIsCreating(true)}>
          {t('fundProducts.createTitle')}
        </Button>
      )}
      <ProductsTable onEditTiers={editTiers} />
      {changes.isError && <QueryError error={changes.error} onRetry={() => void changes.refetch()} />}
      <ProposalsCard<FundSettingChange>
        title={t('fundProducts.changes')}
        hint={t('fundProducts.changesHint')}
        testId="fund-tier-changes"
        rows={changes.data}
        loading={changes.isFetching}
        emptyText={t('fundProducts.noChanges')}
        beforeTitle={t('fundProducts.tiers')}
        afterTitle={t('fundProducts.proposedTiers')}
        kindColumn={{ title: t('fundProducts.product'), render: (row) => row.productId }}
        valuesText={(row, side) => tiersText(row[side])}
        mayDecide={mayDecide}
        decide={(input) => decide.mutateAsync(input)}
      />
      <EditModal spec={editing} onClose={() => setEditing(null)} />
      <CreateFixedFundModal open={isCreating} onClose={() => setIsCreating(false)} />
    </Space>
  );
}
