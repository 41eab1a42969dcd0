import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';

interface ReasonModalProps {
  open: boolean;
  title: string;
  /** The confirm button's text (e.g. "Freeze"). */
  okText: string;
  /** The text field's label; "Reason" when absent. */
  label?: string;
  /** Whether the text may be left empty (a release note is optional). */
  isOptional?: boolean;
  isDanger?: boolean;
  isPending?: boolean;
  onCancel: () => void;
  onSubmit: (text: string) => Promise<unknown>;
}

/**
 * A modal asking for a reason or note before an audited action; it closes once the call succeeds
 * (a refusal is shown by the HTTP client and the modal stays open).
 */
export function ReasonModal(props: ReasonModalProps) {
  const { open, title, okText, label, isOptional, isDanger, isPending, onCancel, onSubmit } = props;
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<{ text: string }>();
  const fieldLabel = label ?? t('common.reason');

  const submit = async () => {
    const { text } = await form.validateFields();
    try {
      await onSubmit(text?.trim() ?? '');
      form.resetFields();
    } catch {
      // Shown by the HTTP client; the operator may correct and retry.
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: isDanger, loading: isPending }}
      onOk={() => void submit()}
      onCancel={() => {
        form.resetFields();
        onCancel();
      }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="text"
          label={fieldLabel}
          rules={[
            { required: !isOptional, whitespace: true, message: t('common.required') },
            { max: 500, message: t('common.tooLong', { max: 500 }) },
          ]}
        >
          <Input.TextArea rows={3} maxLength={500} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
