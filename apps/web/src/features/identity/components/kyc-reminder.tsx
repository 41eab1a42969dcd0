import { Button, notification } from 'antd';
import { type ComponentType, type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { pathTo } from '../../../config/paths.ts';
import { useSelf } from '../api/identity-api.ts';

/** The KYC notification: 80 px from the top, never closing by itself (spec §4, §9). */
export const KYC_NOTIFICATION_TOP_PX = 80;
const KYC_NOTIFICATION_KEY = 'kyc-reminder';

/**
 * After a successful self-load, when identity status is 0, asks the user to verify their identity.
 * The in-app identity page comes with the KYC issue; until then the button opens the profile, which
 * shows the verification state.
 */
export function KycReminder({ toastScope: ToastScope }: { toastScope: ComponentType<{ children: ReactNode }> }) {
  return (
    <ToastScope>
      <Reminder />
    </ToastScope>
  );
}

function Reminder() {
  const { t } = useTranslation('identity');
  const self = useSelf();
  const navigate = useNavigate();
  const [api, contextHolder] = notification.useNotification({ top: KYC_NOTIFICATION_TOP_PX });
  const hasShown = useRef(false);
  const status = self.data?.status.user.status;

  useEffect(() => {
    if (status !== 0 || hasShown.current) return;
    hasShown.current = true;
    api.info({
      key: KYC_NOTIFICATION_KEY,
      duration: 0,
      title: t('kyc.title'),
      description: t('kyc.description'),
      actions: (
        <Button
          type="primary"
          size="small"
          data-testid="kyc-verify"
          onClick={() => {
            api.destroy(KYC_NOTIFICATION_KEY);
            void navigate(pathTo('Profile'));
          }}
        >
          {t('kyc.action')}
        </Button>
      ),
    });
  }, [status, api, t, navigate]);

  return contextHolder;
}
