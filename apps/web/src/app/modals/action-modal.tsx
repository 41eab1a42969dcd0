import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../components/app-modal.tsx';
import { ActionFlowSlot } from '../../features/identity/components/action-flow-slot.tsx';
import {
  closeActionModal,
  openActionModal,
  useModalState,
  type ActionFlow,
  type LoginHandoff,
} from '../../stores/modal-store.ts';

/**
 * The action modal: one flow at a time — Login, Register or Recover. The frame (title,
 * Login/Register tabs) lives here; the flows themselves come from the identity feature's slot.
 */
export function ActionModal() {
  const { t } = useTranslation();
  const { action } = useModalState();
  const flow = action?.flow ?? 'login';

  return (
    <AppModal
      open={action !== null}
      footer={null}
      onCancel={closeActionModal}
      title={flow === 'recover' ? t('actionModal.recover') : null}
      accessibleName={flow === 'register' ? t('actionModal.register') : t('actionModal.login')}
    >
      <div data-testid="action-modal" data-flow={flow}>
        {flow !== 'recover' && (
          <Tabs
            activeKey={flow}
            onChange={(key) =>
              openActionModal(key === 'register' ? 'register' : 'login', { returnTo: action?.returnTo })
            }
            items={[
              { key: 'login', label: t('actionModal.login') },
              { key: 'register', label: t('actionModal.register') },
            ]}
          />
        )}
        <ActionFlowSlot
          flow={flow}
          returnTo={action?.returnTo}
          handoff={action?.handoff}
          onFlowChange={(next: ActionFlow, handoff?: LoginHandoff) =>
            openActionModal(next, { returnTo: action?.returnTo, handoff })
          }
          onDone={closeActionModal}
        />
      </div>
    </AppModal>
  );
}
