import { notification } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { pathTo } from '../../../config/paths.ts';
import { usePushToastTopPx } from '../../../stores/top-right-notices-store.ts';
import { takePushToasts, subscribePushToasts } from '../lib/push-toast-queue.ts';
import { cutText } from '../lib/message-text.ts';
import type { OpenMessageState } from './bell-panel.tsx';
import './push-toast.css';

/** A foreground push shows for 5 s, 100 px from the top. */
export const PUSH_TOAST_DURATION_S = 5;
const PUSH_TOASTS_VISIBLE_MAX = 3;

/**
 * Shows each message that arrives while the tab is open as a toast: title and body
 * cut at 50 characters plus an ellipsis. A click opens the message on the messages page. Its own
 * notification instance, so that its top (100 px) differs from the app's notifications (80 px);
 * while the KYC notice (80 px) is open, the toasts start below it so the two never overlap.
 */
export function PushToastHost() {
  const topPx = usePushToastTopPx();
  const [api, contextHolder] = notification.useNotification({
    top: topPx,
    placement: 'topRight',
    maxCount: PUSH_TOASTS_VISIBLE_MAX,
    duration: PUSH_TOAST_DURATION_S,
  });
  const navigate = useNavigate();

  useEffect(() => {
    const showWaiting = () => {
      for (const message of takePushToasts()) {
        api.open({
          key: message.id,
          title: cutText(message.title),
          description: cutText(message.body),
          duration: PUSH_TOAST_DURATION_S,
          className: 'push-toast',
          role: 'status',
          onClick: () => {
            api.destroy(message.id);
            void navigate(pathTo('Messages'), { state: { openMessageId: message.id } satisfies OpenMessageState });
          },
        });
      }
    };
    showWaiting();
    return subscribePushToasts(showWaiting);
  }, [api, navigate]);

  return contextHolder;
}
