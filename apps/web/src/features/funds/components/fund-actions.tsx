import type { FundProduct } from '@meridian/contracts/funds';
import { useState } from 'react';
import { RedeemModal } from './redeem-modal.tsx';
import { SubscribeModal } from './subscribe-modal.tsx';

type OpenAction = { kind: 'subscribe' | 'redeem'; product: FundProduct } | null;

/** The subscribe and redeem modals of a page, and the functions that open them. */
export function useFundActions() {
  const [open, setOpen] = useState<OpenAction>(null);
  const close = () => setOpen(null);
  const modals =
    open === null ? null : open.kind === 'subscribe' ? (
      <SubscribeModal key={open.product.productId} product={open.product} onClose={close} />
    ) : (
      <RedeemModal key={open.product.productId} product={open.product} onClose={close} />
    );
  return {
    subscribe: (product: FundProduct) => setOpen({ kind: 'subscribe', product }),
    redeem: (product: FundProduct) => setOpen({ kind: 'redeem', product }),
    modals,
  };
}
