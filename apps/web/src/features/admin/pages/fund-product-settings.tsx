import {
  type CreateFixedFundBody,
  FIXED_TERM_DAYS_MAX,
  fundSettingsEndpoints,
  type OpsFundProduct,
} from '@meridian/contracts/fund-settings';
import { Alert, Button, Form, Input, InputNumber, Modal, Space, Switch, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { useCreateFixedFund, useFundProducts, useSetFundActive, useUpdateRateTiers } from '../api/fund-products.ts';
import { useMayCall } from '../components/operator-context.tsx';
import { QueryError } from '../components/query-error.tsx';

/** A yearly rate in percent with at most 2 decimals (the server allows 0.00–50.00). */
const RATE_PATTERN = /^\d{1,2}(\.\d{1,2})?$/;
/** A USD amount with at most 2 decimals. */
const USD_PATTERN = /^\d{1,13}(\.\d{1,2})?$/;
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

interface TierRow {
  upTo: string;
  annualRatePct: string;
}

/** The tiers of one product: each row's limit (empty on the last: no limit) and its yearly rate. */
function EditTiersModal({ product, onClose }: { product: OpsFundProduct | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<{ tiers: TierRow[] }>();
  const update = useUpdateRateTiers();
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  const submit = async () => {
    setError(null);
    const { tiers } = await form.validateFields();
    if (!product) return;
    try {
      await update.mutateAsync({
        productId: product.productId,
        tiers: tiers.map((tier, index) => ({
          upTo: index === tiers.length - 1 ? null : tier.upTo.trim(),
          annualRatePct: tier.annualRatePct.trim(),
        })),
      });
      close();
    } catch (failure) {
      if (failure instanceof ApiError) setError(applyServerErrors(form, failure.response, []) ?? failure.message);
    }
  };
  const initialTiers: TierRow[] =
    product?.tiers.map((tier) => ({ upTo: tier.upTo ?? '', annualRatePct: tier.annualRatePct })) ?? [];
  return (
    <Modal
      open={product !== null}
      title={product ? t('fundProducts.tiersTitle', { name: product.nameEn }) : ''}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: update.isPending }}
      onOk={() => void submit()}
      onCancel={close}
      destroyOnHidden
    >
      <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('fundProducts.tiersHint')} />
      {error && <Alert type="error" showIcon style={{ marginBottom: 16 }} title={error} data-testid="tiers-error" />}
      <Form form={form} layout="vertical" preserve={false} initialValues={{ tiers: initialTiers }}>
        <Form.List name="tiers">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field, index) => {
                const isLast = index === fields.length - 1;
                return (
                  <Space key={field.key} align="start" wrap>
                    <Form.Item
                      name={[field.name, 'upTo']}
                      label={t('fundProducts.upTo')}
                      rules={
                        isLast ? [] : [{ required: true, pattern: USD_PATTERN, message: t('wires.amountInvalid') }]
                      }
                    >
                      <Input
                        inputMode="decimal"
                        prefix="$"
                        disabled={isLast}
                        placeholder={isLast ? t('fundProducts.noLimit') : undefined}
                        style={{ width: 180 }}
                      />
                    </Form.Item>
                    <Form.Item
                      name={[field.name, 'annualRatePct']}
                      label={t('fundProducts.annualRatePct')}
                      rules={[{ required: true, pattern: RATE_PATTERN, message: t('fundProducts.rateInvalid') }]}
                    >
                      <Input inputMode="decimal" suffix="%" style={{ width: 120 }} />
                    </Form.Item>
                    {fields.length > 1 && (
                      <Button style={{ marginTop: 30 }} onClick={() => remove(field.name)}>
                        {t('fundProducts.removeTier')}
                      </Button>
                    )}
                  </Space>
                );
              })}
              {fields.length < 5 && (
                <Button
                  type="dashed"
                  onClick={() => add({ upTo: '', annualRatePct: '' }, Math.max(fields.length - 1, 0))}
                >
                  {t('fundProducts.addTier')}
                </Button>
              )}
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
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
            rules={[required, { pattern: RATE_PATTERN, message: t('fundProducts.rateInvalid') }]}
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

/**
 * Settings tab "Fund products": every
 * product with its tiers, raise window, amount rules and holders; an admin edits the tiers (from the
 * next daily accrual), opens or closes a product to new subscriptions and creates fixed funds. Each
 * change is in the audit log with its before and after.
 */
export function FundProductsTab() {
  const { t } = useTranslation('admin');
  const products = useFundProducts();
  const setActive = useSetFundActive();
  const mayEditTiers = useMayCall(fundSettingsEndpoints.updateRateTiers);
  const maySetActive = useMayCall(fundSettingsEndpoints.setFundActive);
  const mayCreate = useMayCall(fundSettingsEndpoints.createFixedFund);
  const [editing, setEditing] = useState<OpsFundProduct | null>(null);
  const [isCreating, setIsCreating] = useState(false);

  return (
    <>
      {mayCreate && (
        <Button type="primary" style={{ marginBottom: 16 }} onClick={() => setIsCreating(true)}>
          {t('fundProducts.createTitle')}
        </Button>
      )}
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
              mayEditTiers && (
                <Button size="small" onClick={() => setEditing(row)}>
                  {t('fundProducts.editTiers')}
                </Button>
              ),
          },
        ]}
      />
      <EditTiersModal product={editing} onClose={() => setEditing(null)} />
      <CreateFixedFundModal open={isCreating} onClose={() => setIsCreating(false)} />
    </>
  );
}
