import { ADJUSTMENT_STATUSES, type Adjustment, backOfficeAdjustmentEndpoints } from '@meridian/contracts/back-office';
import { ASSET_CODES, type AssetCode } from '@meridian/contracts/money';
import { Alert, Button, Form, Input, Modal, Select, Space, Table, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApproveAdjustment, useProposeAdjustment, useRejectAdjustment } from '../api/decide-adjustment.ts';
import { useAdjustments } from '../api/list-adjustments.ts';
import { useMayCall, useOperatorSessionContext } from '../components/operator-context.tsx';
import { StatusFilter } from '../components/status-filter.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { QueryError } from '../components/query-error.tsx';
import { ReasonModal } from '../components/reason-modal.tsx';
import { previewBalance } from '../lib/balance-preview.ts';
import { formatDateTime } from '../lib/time.ts';
import { usePaging } from '../lib/use-paging.ts';

const PLATFORM_ACCOUNTS = ['adjustments', 'suspense', 'fees'] as const;
const POSTINGS_MAX = 10;
const ALL = 'all';
const STATUS_COLORS: Record<Adjustment['status'], string> = { proposed: 'gold', posted: 'green', rejected: 'red' };

interface PostingLine {
  kind: 'user' | 'platform';
  userId?: string;
  code?: (typeof PLATFORM_ACCOUNTS)[number];
  asset?: AssetCode;
  amount?: string;
}
interface ProposalForm {
  reason: string;
  postings: PostingLine[];
}

const EMPTY_LINE: PostingLine = { kind: 'user' };

/** An account of a posting as one short text: `user 5f1c…` or `platform: suspense`. */
function accountText(account: Adjustment['postings'][number]['account'], t: (key: string) => string): string {
  return account.kind === 'user'
    ? `${t('adjustments.user')} ${account.userId ?? ''}`
    : `${t('adjustments.platform')} ${account.code ?? ''}`;
}

/** The live "balanced per asset" preview under the proposal's lines. */
function BalancePreviewView({ postings }: { postings: PostingLine[] | undefined }) {
  const { t } = useTranslation('admin');
  const preview = previewBalance(postings ?? []);
  return (
    <Alert
      type={preview.isBalanced ? 'success' : 'warning'}
      showIcon
      data-testid="adjustment-balance"
      title={preview.isBalanced ? t('adjustments.balanced') : t('adjustments.notBalanced')}
      description={
        <Space wrap>
          {preview.perAsset.map((row) => (
            <Tag key={row.asset} color={row.isBalanced ? 'green' : 'red'}>
              {t('adjustments.assetSum', { asset: row.asset, sum: row.sum })}
            </Tag>
          ))}
          {preview.invalidLines.length > 0 && (
            <span>
              {t('adjustments.incompleteLines', { lines: preview.invalidLines.map((index) => index + 1).join(', ') })}
            </span>
          )}
        </Space>
      }
    />
  );
}

/** The proposal form: a reason and 2–10 lines of account, asset and signed amount, with the live balance. */
function ProposeModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<ProposalForm>();
  const postings = Form.useWatch('postings', form);
  const propose = useProposeAdjustment();
  const isBalanced = previewBalance(postings ?? []).isBalanced;

  const submit = async () => {
    const values = await form.validateFields();
    try {
      await propose.mutateAsync({
        reason: values.reason.trim(),
        postings: values.postings.map((line) => ({
          account:
            line.kind === 'user'
              ? { kind: 'user' as const, userId: (line.userId ?? '').trim() }
              : { kind: 'platform' as const, code: line.code ?? 'adjustments' },
          asset: line.asset ?? 'USDT',
          amount: (line.amount ?? '').trim(),
        })),
      });
      form.resetFields();
      onClose();
    } catch {
      // Shown by the HTTP client (an unknown user, an unbalanced entry).
    }
  };

  return (
    <Modal
      open={open}
      width={960}
      title={t('adjustments.proposeTitle')}
      okText={t('adjustments.propose')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !isBalanced, loading: propose.isPending }}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<ProposalForm>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ postings: [EMPTY_LINE, EMPTY_LINE] }}
      >
        <Form.Item
          name="reason"
          label={t('common.reason')}
          rules={[{ required: true, whitespace: true, message: t('common.required') }]}
        >
          <Input.TextArea rows={2} maxLength={500} showCount />
        </Form.Item>
        <Form.List name="postings">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field, index) => {
                const line = index + 1;
                const kind = postings?.[index]?.kind ?? 'user';
                const labelOf = (name: string) => t('adjustments.lineField', { line, field: name });
                return (
                  <Space key={field.key} align="start" wrap style={{ display: 'flex' }}>
                    <Form.Item
                      name={[field.name, 'kind']}
                      label={index === 0 ? t('adjustments.accountKind') : undefined}
                    >
                      <Select
                        aria-label={labelOf(t('adjustments.accountKind'))}
                        style={{ width: 150 }}
                        options={[
                          { value: 'user', label: t('adjustments.user') },
                          { value: 'platform', label: t('adjustments.platform') },
                        ]}
                      />
                    </Form.Item>
                    {kind === 'user' ? (
                      <Form.Item
                        name={[field.name, 'userId']}
                        label={index === 0 ? t('adjustments.userId') : undefined}
                        rules={[{ required: true, whitespace: true, message: t('common.required') }]}
                      >
                        <Input aria-label={labelOf(t('adjustments.userId'))} style={{ width: 300 }} maxLength={64} />
                      </Form.Item>
                    ) : (
                      <Form.Item
                        name={[field.name, 'code']}
                        label={index === 0 ? t('adjustments.platformAccount') : undefined}
                        rules={[{ required: true, message: t('common.required') }]}
                      >
                        <Select
                          aria-label={labelOf(t('adjustments.platformAccount'))}
                          style={{ width: 300 }}
                          options={PLATFORM_ACCOUNTS.map((value) => ({ value, label: t(`platformAccounts.${value}`) }))}
                        />
                      </Form.Item>
                    )}
                    <Form.Item
                      name={[field.name, 'asset']}
                      label={index === 0 ? t('common.asset') : undefined}
                      rules={[{ required: true, message: t('common.required') }]}
                    >
                      <Select
                        aria-label={labelOf(t('common.asset'))}
                        style={{ width: 120 }}
                        options={ASSET_CODES.map((code) => ({ value: code, label: code }))}
                      />
                    </Form.Item>
                    <Form.Item
                      name={[field.name, 'amount']}
                      label={index === 0 ? t('adjustments.signedAmount') : undefined}
                      rules={[{ required: true, pattern: /^-?\d+(\.\d+)?$/, message: t('adjustments.amountInvalid') }]}
                    >
                      <Input
                        aria-label={labelOf(t('common.amount'))}
                        style={{ width: 180 }}
                        placeholder="-10.50"
                        inputMode="decimal"
                      />
                    </Form.Item>
                    <Form.Item label={index === 0 ? ' ' : undefined}>
                      <Button
                        aria-label={t('adjustments.removeLine', { line })}
                        disabled={fields.length <= 2}
                        onClick={() => remove(field.name)}
                      >
                        {t('adjustments.remove')}
                      </Button>
                    </Form.Item>
                  </Space>
                );
              })}
              <Button
                type="dashed"
                disabled={fields.length >= POSTINGS_MAX}
                onClick={() => add(EMPTY_LINE)}
                style={{ marginBottom: 16 }}
              >
                {t('adjustments.addLine')}
              </Button>
            </>
          )}
        </Form.List>
        <BalancePreviewView postings={postings} />
        <p style={{ marginTop: 12 }}>{t('adjustments.fourEyesHint')}</p>
      </Form>
    </Modal>
  );
}

/**
 * `/admin/adjustments`: manual adjustments under four eyes. A finance operator proposes a balanced
 * entry with a reason; another one approves (posted) or rejects it; the proposer's own Approve is
 * disabled (the server refuses it anyway).
 */
export function AdjustmentsPage() {
  const { t, i18n } = useTranslation('admin');
  const { operator } = useOperatorSessionContext();
  const [status, setStatus] = useState<Adjustment['status'] | typeof ALL>('proposed');
  const paging = usePaging();
  const adjustments = useAdjustments({
    pageID: paging.pageID,
    pageSize: paging.pageSize,
    ...(status !== ALL && { status }),
  });
  const approve = useApproveAdjustment();
  const reject = useRejectAdjustment();
  const mayPropose = useMayCall(backOfficeAdjustmentEndpoints.proposeAdjustment);
  const mayApprove = useMayCall(backOfficeAdjustmentEndpoints.approveAdjustment);
  const mayReject = useMayCall(backOfficeAdjustmentEndpoints.rejectAdjustment);
  const [isProposing, setProposing] = useState(false);
  const [rejecting, setRejecting] = useState<number | null>(null);

  return (
    <>
      <PageTitle
        extra={
          mayPropose && (
            <Button type="primary" onClick={() => setProposing(true)}>
              {t('adjustments.new')}
            </Button>
          )
        }
      >
        {t('adjustments.title')}
      </PageTitle>
      <Space style={{ marginBottom: 16 }}>
        <StatusFilter
          value={status}
          statuses={ADJUSTMENT_STATUSES}
          all={ALL}
          labelOf={(value) => t(`adjustments.status.${value}`)}
          onChange={(value) => {
            setStatus(value);
            paging.reset();
          }}
        />
      </Space>
      {adjustments.isError && <QueryError error={adjustments.error} onRetry={() => void adjustments.refetch()} />}
      <Table<Adjustment>
        rowKey="id"
        loading={adjustments.isFetching}
        dataSource={adjustments.data?.list}
        pagination={paging.pagination(adjustments.data?.totalCount)}
        columns={[
          { title: t('common.id'), dataIndex: 'id' },
          {
            title: t('adjustments.proposed'),
            key: 'proposed',
            render: (_, row) => `${row.proposedBy} · ${formatDateTime(row.proposedAt, i18n.language)}`,
          },
          { title: t('common.reason'), dataIndex: 'reason' },
          {
            title: t('adjustments.postings'),
            dataIndex: 'postings',
            render: (postings: Adjustment['postings']) => (
              <ul style={{ margin: 0, paddingInlineStart: 16 }}>
                {postings.map((posting, index) => (
                  <li key={index}>{`${accountText(posting.account, t)} · ${posting.asset} ${posting.amount}`}</li>
                ))}
              </ul>
            ),
          },
          {
            title: t('common.status'),
            dataIndex: 'status',
            render: (value: Adjustment['status'], row) => (
              <Space orientation="vertical" size={2}>
                <Tag color={STATUS_COLORS[value]}>{t(`adjustments.status.${value}`)}</Tag>
                {row.decidedBy && <span>{`${row.decidedBy} · ${formatDateTime(row.decidedAt, i18n.language)}`}</span>}
                {row.decisionNote && <span>{row.decisionNote}</span>}
              </Space>
            ),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, row) => {
              if (row.status !== 'proposed') return null;
              const isOwn = row.proposedBy === operator.email;
              return (
                <Space>
                  {mayApprove && (
                    <Tooltip title={isOwn ? t('adjustments.ownProposal') : undefined}>
                      <Button
                        size="small"
                        type="primary"
                        disabled={isOwn}
                        loading={approve.isPending && approve.variables === row.id}
                        onClick={() => void approve.mutateAsync(row.id).catch(() => undefined)}
                      >
                        {t('adjustments.approve')}
                      </Button>
                    </Tooltip>
                  )}
                  {mayReject && (
                    <Button size="small" danger onClick={() => setRejecting(row.id)}>
                      {t('adjustments.reject')}
                    </Button>
                  )}
                </Space>
              );
            },
          },
        ]}
      />
      <ProposeModal open={isProposing} onClose={() => setProposing(false)} />
      <ReasonModal
        open={rejecting !== null}
        title={t('adjustments.rejectTitle')}
        okText={t('adjustments.reject')}
        isDanger
        isPending={reject.isPending}
        onCancel={() => setRejecting(null)}
        onSubmit={async (reason) => {
          if (rejecting !== null) await reject.mutateAsync({ id: rejecting, reason });
          setRejecting(null);
        }}
      />
    </>
  );
}
