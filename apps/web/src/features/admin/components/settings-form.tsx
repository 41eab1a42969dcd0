import { Alert, Button, Card, Descriptions, Form, Input, Modal, Space, Table, Tag } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { formatDateTime } from '../lib/time.ts';
import { useOperatorSessionContext } from './operator-context.tsx';

/**
 * The one shape of the back office's settings pages (docs/back-office.md "Four eyes"): a field list
 * drives both the read-only view and the edit form, and every four-eyes kind shows its proposals in
 * the same table with approve and reject. The loan, card and fund settings tabs are built of these.
 */

/** An amount with at most `decimals` decimals. */
export const amountPattern = (decimals: number) => new RegExp(`^\\d{1,13}(\\.\\d{1,${decimals}})?$`);
/** A percentage with at most 2 decimals (the server checks the ranges and the order). */
export const PCT_PATTERN = /^\d{1,2}(\.\d{1,2})?$/;
/** A whole number (minutes, counts), at most 5 digits (the server checks the range). */
export const WHOLE_PATTERN = /^\d{1,5}$/;

/** The values of an `EditModal`'s fields, trimmed. */
export type Fields = Record<string, string>;
/** One text field of a settings form: its name in the request body, label, check and unit. */
export interface FieldSpec {
  name: string;
  label: string;
  pattern: RegExp;
  suffix?: string;
  /** May be left empty (saved as ''); the pattern checks what is typed. */
  optional?: boolean;
}

/** One small form in a modal: the fields, their starting values, and what saving calls. */
export interface EditSpec {
  title: string;
  hint?: string;
  fields: FieldSpec[];
  initial: Fields;
  save: (values: Fields) => Promise<unknown>;
}

/** A modal of text fields (every settings tab); a server refusal names its field. */
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
      await spec.save(Object.fromEntries(Object.entries(values).map(([key, value]) => [key, (value ?? '').trim()])));
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
                ...(field.optional ? [] : [{ required: true, whitespace: true, message: t('common.required') }]),
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

/**
 * A value changed at once, with an "Edit" button for an operator who may edit: the button opens
 * the value's form (`spec`, built when clicked). `testId` names the button.
 */
export function EditableValue(props: {
  children: ReactNode;
  mayEdit: boolean;
  label: string;
  testId?: string;
  spec: () => EditSpec;
  onEdit: (spec: EditSpec) => void;
}) {
  return (
    <Space wrap>
      {props.children}
      {props.mayEdit && (
        <Button size="small" data-testid={props.testId} onClick={() => props.onEdit(props.spec())}>
          {props.label}
        </Button>
      )}
    </Space>
  );
}

/** A field of a four-eyes section: the form's field and its current value (as the server gives it). */
export interface SettingField extends FieldSpec {
  value: string;
}

/**
 * A four-eyes settings section: the current values of `fields`, and for a proposer a button that
 * opens the same fields as a form; saving proposes (nothing applies until a different operator
 * approves). `testId` names the section's button (`<testId>-propose`) and values (`<testId>-<name>`).
 */
export function FourEyesSection(props: {
  title: string;
  /** Shown above the values (what the section's numbers do). */
  hint?: string;
  testId: string;
  fields: SettingField[] | undefined;
  mayPropose: boolean;
  proposeLabel: string;
  proposeTitle: string;
  proposeHint: string;
  propose: (values: Fields) => Promise<unknown>;
  onEdit: (spec: EditSpec) => void;
  /** Rows shown after the proposed fields (read-only or changed at once). */
  extraItems?: { key: string; label: string; children: ReactNode }[];
}) {
  const { fields } = props;
  return (
    <Card title={props.title}>
      {props.hint && <Alert type="info" showIcon style={{ marginBottom: 16 }} title={props.hint} />}
      {props.mayPropose && fields && (
        <Button
          style={{ marginBottom: 16 }}
          data-testid={`${props.testId}-propose`}
          onClick={() =>
            props.onEdit({
              title: props.proposeTitle,
              hint: props.proposeHint,
              fields,
              initial: Object.fromEntries(fields.map((field) => [field.name, field.value])),
              save: props.propose,
            })
          }
        >
          {props.proposeLabel}
        </Button>
      )}
      {fields && (
        <Descriptions
          bordered
          size="small"
          column={{ xs: 1, md: 2 }}
          items={[
            ...fields.map((field) => ({
              key: field.name,
              label: field.label,
              children: (
                <span data-testid={`${props.testId}-${field.name}`}>
                  {field.suffix ? `${field.value} ${field.suffix}` : field.value}
                </span>
              ),
            })),
            ...(props.extraItems ?? []),
          ]}
        />
      )}
    </Card>
  );
}

/** What every proposal of every kind has (the contracts' change schemas all carry these). */
export interface ProposalRow {
  id: number;
  status: 'proposed' | 'applied' | 'rejected';
  proposedBy: string;
  proposedAt: string;
  decidedBy: string | null;
  decidedAt: string | null;
}

/**
 * The proposals of a settings tab, newest first: what each held and would set (`valuesText`), its
 * status, who proposed and decided; an approver approves or rejects a proposed one. Approve is
 * disabled on one's own proposal (the server refuses it too, 153); a refusal shows above the table.
 */
export function ProposalsCard<Row extends ProposalRow>(props: {
  title: string;
  hint?: string;
  testId: string;
  rows: Row[] | undefined;
  loading: boolean;
  emptyText: string;
  valuesText: (row: Row, side: 'before' | 'after') => string;
  /** Titles of the columns of the values before and proposed. */
  beforeTitle: string;
  afterTitle: string;
  /** A column naming the proposal's kind, when the tab has more than one. */
  kindColumn?: { title: string; render: (row: Row) => string };
  /** Whether the operator may decide the proposals here (all, or row by row). */
  mayDecide: boolean | ((row: Row) => boolean);
  decide: (input: { id: number; decision: 'approve' | 'reject' }) => Promise<unknown>;
}) {
  const { t, i18n } = useTranslation('admin');
  const me = useOperatorSessionContext().operator.email;
  const [error, setError] = useState<string | null>(null);
  const decide = async (id: number, decision: 'approve' | 'reject') => {
    setError(null);
    try {
      await props.decide({ id, decision });
    } catch (failure) {
      if (failure instanceof ApiError) setError(failure.message);
    }
  };
  const kindColumn = props.kindColumn;
  const mayDecide = (row: Row) => (typeof props.mayDecide === 'function' ? props.mayDecide(row) : props.mayDecide);
  return (
    <Card title={props.title} data-testid={props.testId}>
      {props.hint && <Alert type="info" showIcon style={{ marginBottom: 16 }} title={props.hint} />}
      {error && <Alert type="error" showIcon style={{ marginBottom: 16 }} title={error} />}
      <Table<Row>
        rowKey="id"
        loading={props.loading}
        dataSource={props.rows}
        pagination={false}
        scroll={{ x: kindColumn ? 1300 : 1100 }}
        locale={{ emptyText: props.emptyText }}
        columns={[
          { title: t('common.id'), dataIndex: 'id' },
          ...(kindColumn
            ? [{ title: kindColumn.title, key: 'kind', render: (_: unknown, row: Row) => kindColumn.render(row) }]
            : []),
          { title: props.beforeTitle, key: 'before', render: (_, row) => props.valuesText(row, 'before') },
          { title: props.afterTitle, key: 'after', render: (_, row) => props.valuesText(row, 'after') },
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
              mayDecide(row) &&
              row.status === 'proposed' && (
                <Space>
                  <Button
                    size="small"
                    type="primary"
                    disabled={row.proposedBy === me}
                    title={row.proposedBy === me ? t('productSettings.ownProposal') : undefined}
                    onClick={() => void decide(row.id, 'approve')}
                  >
                    {t('loanSettings.approve')}
                  </Button>
                  <Button size="small" danger onClick={() => void decide(row.id, 'reject')}>
                    {t('loanSettings.reject')}
                  </Button>
                </Space>
              ),
          },
        ]}
      />
    </Card>
  );
}
