import { useTranslation } from 'react-i18next';
import { AppModal } from '../../components/app-modal.tsx';
import { SecurityCheckSlot } from '../../features/security/components/security-check-slot.tsx';
import { closeSecurityCheck, useModalState } from '../../stores/modal-store.ts';

/** The security-check modal frame; its form comes from the security feature's slot. */
export function SecurityCheckModal() {
  const { t } = useTranslation();
  const { securityCheck } = useModalState();
  return (
    <AppModal
      open={securityCheck !== null}
      footer={null}
      title={t('securityCheck.title')}
      onCancel={closeSecurityCheck}
    >
      <div data-testid="security-check-modal">
        {securityCheck && <SecurityCheckSlot request={securityCheck} onClose={closeSecurityCheck} />}
      </div>
    </AppModal>
  );
}
