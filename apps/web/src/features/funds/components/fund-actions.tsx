import type { FundProduct } from '@meridian/contracts/funds';
import { lazy, Suspense, useState } from 'react';

// The modals (their forms, the contracts' schemas) load when first opened, not with the page (the page-weight budgets
// of docs/performance.md).
const SubscribeModal = lazy(() => import('./subscribe-modal.tsx').then((m) => ({ default: m.SubscribeModal })));
const RedeemModal = lazy(() => import('./redeem-modal.tsx').then((m) => ({ default: m.RedeemModal })));

type OpenAction = { kind: 'subscribe' | 'redeem'; product: FundProduct } | null;

/** The subscribe and redeem modals of a page, and the functions that open them. */
export function useFundActions() {
  const [open, setOpen] = useState<OpenAction>(null);
  const close = () => setOpen(null);
  const modals =
    open === null ? null : (
      <Suspense fallback={null}>
        {open.kind === 'subscribe' ? (
          <SubscribeModal key={open.product.productId} product={open.product} onClose={close} />
        ) : (
          <RedeemModal key={open.product.productId} product={open.product} onClose={close} />
        )}
      </Suspense>
    );
  return {
    subscribe: (product: FundProduct) => setOpen({ kind: 'subscribe', product }),
    redeem: (product: FundProduct) => setOpen({ kind: 'redeem', product }),
    modals,
  };
}
