import { Button, notification } from 'antd';
import { type ComponentType, type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { pathTo } from '../../../config/paths.ts';
import { KYC_NOTICE_TOP_PX, setKycNoticeBottomPx } from '../../../stores/top-right-notices-store.ts';
import { useSelf } from '../../../lib/get-self.ts';

/** The KYC notification: 80 px from the top, never closing by itself. */
const KYC_NOTIFICATION_KEY = 'kyc-reminder';
const KYC_NOTICE_CLASS = 'kyc-notice';

/**
 * After a successful self-load, when identity status is 0, asks the user to verify their identity.
 * The button opens the identity overview (`/identity`), which leads back here afterwards.
 * Hidden on the `/identity` pages themselves, shown again when the user leaves them unverified.
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
  const location = useLocation();
  // Read when the button is pressed: the notice stays up while the user moves between pages.
  const hereRef = useRef('/');
  hereRef.current = `${location.pathname}${location.search}`;
  const [api, contextHolder] = notification.useNotification({ top: KYC_NOTICE_TOP_PX });
  const hasShown = useRef(false);
  const status = self.data?.status.user.status;
  // Not on the verification pages themselves: the notice would only cover the form.
  const isIdentityPage =
    location.pathname === pathTo('Identity') || location.pathname.startsWith(`${pathTo('Identity')}/`);

  useEffect(() => {
    if (!isIdentityPage) return;
    api.destroy(KYC_NOTIFICATION_KEY);
    // Shown again once the user leaves the identity pages still unverified.
    hasShown.current = false;
  }, [isIdentityPage, api]);

  useEffect(() => {
    if (status !== 0 || hasShown.current || isIdentityPage) return;
    hasShown.current = true;
    api.info({
      key: KYC_NOTIFICATION_KEY,
      className: KYC_NOTICE_CLASS,
      duration: 0,
      title: t('kyc.title'),
      description: <NoticeBottomReporter>{t('kyc.description')}</NoticeBottomReporter>,
      actions: (
        <Button
          type="primary"
          size="small"
          data-testid="kyc-verify"
          onClick={() => {
            api.destroy(KYC_NOTIFICATION_KEY);
            void navigate(`${pathTo('Identity')}?returnTo=${encodeURIComponent(hereRef.current)}`);
          }}
        >
          {t('kyc.action')}
        </Button>
      ),
    });
  }, [status, api, t, navigate, isIdentityPage]);

  return contextHolder;
}

/**
 * The notice's text. While the notice is on screen it reports where the notice ends, as its size
 * changes (language, width, the closing motion), so that the message toasts stack below it.
 */
function NoticeBottomReporter({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const notice = ref.current?.closest(`.${KYC_NOTICE_CLASS}`);
    if (!notice) return;
    const report = () => setKycNoticeBottomPx(notice.getBoundingClientRect().bottom);
    report();
    const observer = new ResizeObserver(report);
    observer.observe(notice);
    return () => {
      observer.disconnect();
      setKycNoticeBottomPx(null);
    };
  }, []);
  return <span ref={ref}>{children}</span>;
}
