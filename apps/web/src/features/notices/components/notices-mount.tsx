import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { useUserId } from '../../../lib/session.ts';
import { QuietBoundary } from './quiet-boundary.tsx';

const SignedInNotices = lazy(() =>
  import('./signed-in-notices.tsx').then((module) => ({ default: module.SignedInNotices })),
);

/**
 * Mounted once by the app's root layout. For a signed-in user (a user id is present) it
 * loads the realtime part of the message centre — the message stream, foreground toasts and push
 * registration — after first paint; for a guest it renders nothing and loads nothing.
 */
export function NoticesMount({ toastScope }: { toastScope: ComponentType<{ children: ReactNode }> }) {
  const userId = useUserId();
  if (!userId) return null;
  return (
    <QuietBoundary>
      <Suspense fallback={null}>
        <SignedInNotices key={userId} userId={userId} toastScope={toastScope} />
      </Suspense>
    </QuietBoundary>
  );
}
