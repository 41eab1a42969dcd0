import { App as AntdApp, Button } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { bindFeedbackSink } from '../../lib/feedback.ts';
import { ActionModal } from '../modals/action-modal.tsx';
import { ConfirmModal } from '../modals/confirm-modal.tsx';
import { LocaleModal } from '../modals/locale-modal.tsx';
import { SecurityCheckModal } from '../modals/security-check-modal.tsx';
import { MobileNavDrawer } from '../layout/mobile-nav-drawer.tsx';
import { AntdConfig } from '../../components/antd-config.tsx';
import './overlay.css';

/** Connects Ant Design's message and notification APIs to the app-wide feedback module. */
function FeedbackBinder() {
  const { message, notification } = AntdApp.useApp();
  const navigate = useNavigate();
  useEffect(
    () =>
      bindFeedbackSink({
        show(event) {
          switch (event.kind) {
            case 'success':
              void message.success(event.text);
              break;
            case 'error':
              void message.error(event.text);
              break;
            case 'notification':
              if (event.action) {
                const { label, to } = event.action;
                const key = `action-${to}`;
                notification.warning({
                  key,
                  title: event.title,
                  description: event.description,
                  actions: (
                    <Button
                      type="primary"
                      size="small"
                      data-testid="feedback-action"
                      onClick={() => {
                        notification.destroy(key);
                        void navigate(to);
                      }}
                    >
                      {label}
                    </Button>
                  ),
                });
              } else {
                notification.error({ title: event.title, description: event.description });
              }
              break;
          }
        },
      }),
    [message, notification, navigate],
  );
  return null;
}

/**
 * Everything that floats above the page: toasts and notifications, the global modals and
 * the mobile navigation drawer. Loaded on first need so the home page's first paint stays light.
 */
export function OverlayHost() {
  return (
    <AntdConfig>
      <AntdApp component={false} message={{ top: 76, maxCount: 3 }} notification={{ placement: 'topRight', top: 80 }}>
        <FeedbackBinder />
        <MobileNavDrawer />
        <LocaleModal />
        <ConfirmModal />
        <ActionModal />
        <SecurityCheckModal />
      </AntdApp>
    </AntdConfig>
  );
}
