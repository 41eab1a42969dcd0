import { Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';

/** Reasons a reviewer picks from (the text sent is the chosen reason in the operator's language, then the details). */
const REJECTION_REASONS = [
  'documentUnreadable',
  'documentExpired',
  'nameMismatch',
  'selfieMismatch',
  'addressProofInvalid',
  'incomplete',
  'other',
] as const;

/** The rejection modal: a reason from the list plus free text, joined into the text shown to the user. */
export function RejectModal(props: {
  open: boolean;
  isPending: boolean;
  onCancel: () => void;
  onReject: (reason: string) => Promise<void>;
}) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<{ reason: (typeof REJECTION_REASONS)[number]; details?: string }>();
  const submit = async () => {
    const { reason, details } = await form.validateFields();
    const label = t(`rejectionReasons.${reason}`);
    const text = details?.trim() ? `${label}: ${details.trim()}` : label;
    try {
      await props.onReject(text);
    } catch {
      // Shown by the HTTP client.
    }
  };
  return (
    <Modal
      open={props.open}
      title={t('kyc.rejectTitle')}
      okText={t('kyc.reject')}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: true, loading: props.isPending }}
      onOk={() => void submit()}
      onCancel={props.onCancel}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="reason"
          label={t('kyc.rejectReason')}
          rules={[{ required: true, message: t('common.required') }]}
        >
          <Select options={REJECTION_REASONS.map((value) => ({ value, label: t(`rejectionReasons.${value}`) }))} />
        </Form.Item>
        <Form.Item
          name="details"
          label={t('kyc.rejectDetails')}
          dependencies={['reason']}
          rules={[
            ({ getFieldValue }) => ({
              required: getFieldValue('reason') === 'other',
              whitespace: true,
              message: t('common.required'),
            }),
            { max: 400, message: t('common.tooLong', { max: 400 }) },
          ]}
        >
          <Input.TextArea rows={3} maxLength={400} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
