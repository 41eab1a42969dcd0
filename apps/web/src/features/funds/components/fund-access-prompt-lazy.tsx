import { lazy, Suspense } from 'react';
import type { FundAccess } from '../lib/fund-access.ts';

const Prompt = lazy(() => import('./fund-access-prompt.tsx').then((m) => ({ default: m.FundAccessPrompt })));

/** The guest / verification prompt, loaded only when shown (most visitors of these pages never see it). */
export function FundAccessPrompt({ access }: { access: Exclude<FundAccess, { kind: 'ok' }> }) {
  return (
    <Suspense fallback={null}>
      <Prompt access={access} />
    </Suspense>
  );
}
