import { type Card, cardEndpoints } from '@meridian/contracts/cards';
import { Alert, Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal.tsx';
import { useModalForm } from '../../../hooks/use-modal-form.ts';
import { useInvalidateCards } from '../api/card-keys.ts';

interface PinValues {
  pin: string;
  confirm: string;
}

const PIN_PATTERN = /^\d{4}$/;

/**
 * Set or change the card's PIN (4 digits, typed twice): sent through the security check
 * (CARD_PIN) to the processor, which alone keeps it. Five wrong PINs in a row block the card.
 */
export function PinModal({ card, onClose }: { card: Card; onClose: () => void }) {
  const { t } = useTranslation('cards');
  const invalidate = useInvalidateCards();
  const pinForm = useModalForm<PinValues, typeof cardEndpoints.setPin>({
    endpoint: cardEndpoints.setPin,
    fieldOf: (field) => (field === 'pin' ? 'pin' : undefined),
    onSuccess: invalidate,
    isClosedOnSuccess: true,
    onClose,
  });

  const submit = ({ pin }: PinValues) => pinForm.submit({ params: { id: card.id }, body: { pin } });

  return (
    <AppModal
      open
      title={t(card.isPinSet ? 'pin.changeTitle' : 'pin.setTitle', { card: card.last4 })}
      footer={null}
      onCancel={pinForm.close}
      data-testid="card-pin-modal"
    >
      <Form<PinValues> {...pinForm.formProps} layout="vertical" requiredMark={false} onFinish={submit}>
        <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('pin.note')} />
        <Form.Item
          name="pin"
          label={t('pin.pin')}
          rules={[{ pattern: PIN_PATTERN, required: true, message: t('pin.invalid') }]}
        >
          <Input.Password inputMode="numeric" maxLength={4} autoComplete="new-password" data-testid="card-pin" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('pin.confirm')}
          dependencies={['pin']}
          rules={[
            { required: true, message: t('pin.invalid') },
            ({ getFieldValue }) => ({
              validator: async (_rule, value: string | undefined) => {
                if (value && value !== getFieldValue('pin')) throw new Error(t('pin.mismatch'));
              },
            }),
          ]}
        >
          <Input.Password
            inputMode="numeric"
            maxLength={4}
            autoComplete="new-password"
            data-testid="card-pin-confirm"
          />
        </Form.Item>
        {pinForm.error && <Alert type="error" showIcon style={{ marginBottom: 12 }} message={pinForm.error} />}
        <Button type="primary" htmlType="submit" block loading={pinForm.isPending} data-testid="card-pin-submit">
          {t('pin.submit')}
        </Button>
      </Form>
    </AppModal>
  );
}
