import { type ApplyCardBody, applyCardBodySchema, type CardKind, cardEndpoints } from '@meridian/contracts/cards';
import { toLocale } from '@meridian/contracts/locale';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useModalForm } from '../../../hooks/use-modal-form.ts';
import { useInvalidateCards } from '../api/card-keys.ts';
import { contractFieldErrors } from '../lib/form-refusals.ts';

/** The apply form's values; the shipping address is sent for a physical card only. */
export interface ApplyValues {
  kind: CardKind;
  network: ApplyCardBody['network'];
  currency: ApplyCardBody['currency'];
  cardholderName: string;
  shippingAddress?: NonNullable<ApplyCardBody['shippingAddress']>;
  isFeeAccepted?: boolean;
}

/** Business codes the apply form shows on a field rather than above the button. */
const FIELD_OF_CODE: Partial<Record<number, string>> = {
  210: 'kind',
};

/**
 * The apply modal's form (`useModalForm` on `cardEndpoints.applyCard`, the created card kept as
 * `result`) and `send(values)`: the body is checked with the contract's schema (refusals marked on
 * the fields, nothing sent), then the security check (CARD_APPLY) sends it with one idempotency key
 * per opening of the modal, so a retry never issues a second card.
 */
export function useApplyCard(onClose: () => void) {
  const { i18n } = useTranslation('cards');
  const locale = toLocale(i18n.language);
  const invalidate = useInvalidateCards();
  // One idempotency key per opening of the modal: a retry never issues a second card.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const apply = useModalForm<ApplyValues, typeof cardEndpoints.applyCard>({
    endpoint: cardEndpoints.applyCard,
    quietSuccess: true,
    fieldOfCode: FIELD_OF_CODE,
    onSuccess: invalidate,
    onClose,
  });

  const send = (values: ApplyValues) => {
    const body: ApplyCardBody = {
      kind: values.kind,
      network: values.network,
      currency: values.currency,
      cardholderName: values.cardholderName.trim(),
      ...(values.kind === 'PHYSICAL' && { shippingAddress: values.shippingAddress }),
    };
    const errors = contractFieldErrors(applyCardBodySchema, body, locale);
    if (errors.length > 0) {
      apply.form.setFields(errors.map((e) => ({ name: e.name as never, errors: e.errors })));
      return;
    }
    apply.submit({ body }, { idempotencyKey });
  };

  return { apply, send };
}
