import type { ReactNode } from 'react';
import { PageFrame } from '../../../components/page-frame.tsx';
import { RequireUser } from '../../../components/require-user.tsx';

/**
 * The frame of every `/identity/*` page: signed-in only, in the padded page container the other
 * site pages use (`container section`), so the content never sits against the screen's edge.
 */
export function IdentityShell({ children }: { children: ReactNode }) {
  return (
    <RequireUser>
      <div className="container section identity-shell">
        <PageFrame>{children}</PageFrame>
      </div>
    </RequireUser>
  );
}
