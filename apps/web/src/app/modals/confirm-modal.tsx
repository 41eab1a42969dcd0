import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../components/app-modal.tsx';
import { settleConfirm, useModalState } from '../../stores/modal-store.ts';

/**
 * The confirm modal: title, content, OK and Cancel. OK shows a loading state while the
 * caller's `onOk` runs; the modal closes when it succeeds and stays open when it fails.
 */
export function ConfirmModal() {
  const { t } = useTranslation();
  const { confirm } = useModalState();
  const [isRunning, setRunning] = useState(false);

  useEffect(() => setRunning(false), [confirm]);

  const onOk = async () => {
    if (!confirm) return;
    if (!confirm.onOk) {
      settleConfirm(true);
      return;
    }
    setRunning(true);
    try {
      await confirm.onOk();
      settleConfirm(true);
    } catch {
      setRunning(false);
    }
  };

  return (
    <AppModal
      open={confirm !== null}
      title={confirm?.title}
      okText={confirm?.okText ?? t('confirm.ok')}
      cancelText={confirm?.cancelText ?? t('confirm.cancel')}
      confirmLoading={isRunning}
      onOk={() => void onOk()}
      onCancel={() => settleConfirm(false)}
    >
      <div data-testid="confirm-modal">{confirm?.content}</div>
    </AppModal>
  );
}
