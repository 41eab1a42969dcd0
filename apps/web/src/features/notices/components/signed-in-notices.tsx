import { useQueryClient } from '@tanstack/react-query';
import { type ComponentType, lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { getStoredLocale } from '../../../lib/locale.ts';
import { openMessageStream } from '../lib/message-stream.ts';
import { registerForPushOnce } from '../lib/push-registration.ts';
import { enqueuePushToast } from '../lib/push-toast-queue.ts';
import { QuietBoundary } from './quiet-boundary.tsx';

const PushToastHost = lazy(() => import('./push-toast-host.tsx').then((module) => ({ default: module.PushToastHost })));

export interface SignedInNoticesProps {
  userId: string;
  /** Ant Design's configuration (theme, language) around the toasts; the app supplies it. */
  toastScope: ComponentType<{ children: ReactNode }>;
}

/**
 * What runs while a user is signed in: one message stream per tab that keeps the cached list and
 * unread count current and shows each new message as a toast, and the push registration after
 * self-load. The toasts' Ant Design code loads with the first message.
 */
export function SignedInNotices({ userId, toastScope: ToastScope }: SignedInNoticesProps) {
  const queryClient = useQueryClient();
  const [hasToasts, setHasToasts] = useState(false);

  useEffect(
    () =>
      openMessageStream({
        queryClient,
        userId,
        // A change of language reloads the page, so the tab's language is fixed for the stream.
        locale: getStoredLocale(),
        onMessage: (event) => {
          enqueuePushToast(event.message);
          setHasToasts(true);
        },
      }),
    [queryClient, userId],
  );

  useEffect(() => registerForPushOnce(userId), [userId]);

  if (!hasToasts) return null;
  return (
    // Its own boundaries, so that loading the toasts, or failing to, never stops the stream above.
    <QuietBoundary>
      <Suspense fallback={null}>
        <ToastScope>
          <PushToastHost />
        </ToastScope>
      </Suspense>
    </QuietBoundary>
  );
}
