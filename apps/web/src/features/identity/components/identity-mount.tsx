import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { useUserId } from '../../../lib/session.ts';

const KycReminder = lazy(() => import('./kyc-reminder.tsx').then((module) => ({ default: module.KycReminder })));

/**
 * Mounted once by the root layout. For a signed-in user it loads the user (`user/self`) after first
 * paint and, when identity verification is still 0, shows the persistent KYC notification.
 */
export function IdentityMount({ toastScope }: { toastScope: ComponentType<{ children: ReactNode }> }) {
  const userId = useUserId();
  if (!userId) return null;
  return (
    <Suspense fallback={null}>
      <KycReminder key={userId} toastScope={toastScope} />
    </Suspense>
  );
}
