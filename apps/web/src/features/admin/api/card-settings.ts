import {
  cardSettingsEndpoints,
  type ProposeCardFeesBody,
  type ProposeCardFxRatesBody,
  type UpdateCardIssuingBody,
  type UpdateCardLimitsBody,
  type UpdateCardTopUpBody,
} from '@meridian/contracts/card-settings';
import type { CardCurrency } from '@meridian/contracts/cards';
import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../lib/api-client.ts';
import { adminCall, adminFetch } from './admin-call.ts';
import { useAdminMutation } from './use-admin-mutation.ts';

/** Query key of the card settings (under `admin`, forgotten at sign-out). */
export const cardSettingsKey = ['admin', 'settings', 'card-settings'] as const;

/** `GET admin/card-settings`: fees, cards per user, promotion, currencies, top-up bounds, limits, rates, proposals. */
export function useCardSettings() {
  return useQuery({ queryKey: cardSettingsKey, queryFn: () => adminFetch(cardSettingsEndpoints.getCardSettings, {}) });
}

/** `PUT admin/card-settings/issuing` (admin): cards per user, promotion, virtual currencies, at once. @throws ApiError 120 naming the field. */
export function useUpdateCardIssuing() {
  return useAdminMutation(
    async (body: UpdateCardIssuingBody) => unwrap(await adminCall(cardSettingsEndpoints.updateCardIssuing, { body })),
    [cardSettingsKey],
  );
}

/** `PUT admin/card-settings/top-up` (admin): least and most one top-up spends. @throws ApiError 120 naming `topUpMin` / `topUpMax`. */
export function useUpdateCardTopUp() {
  return useAdminMutation(
    async (body: UpdateCardTopUpBody) => unwrap(await adminCall(cardSettingsEndpoints.updateCardTopUp, { body })),
    [cardSettingsKey],
  );
}

/** `PUT admin/card-settings/limits/:currency` (admin): default limits of new cards. @throws ApiError 120 naming the field. */
export function useUpdateCardLimits() {
  return useAdminMutation(
    async (input: { currency: CardCurrency } & UpdateCardLimitsBody) => {
      const { currency, ...body } = input;
      return unwrap(await adminCall(cardSettingsEndpoints.updateCardLimits, { params: { currency }, body }));
    },
    [cardSettingsKey],
  );
}

/** `POST admin/card-settings/fx-rates/changes` (admin): propose EUR, GBP, JPY per 1 USD. @throws ApiError 120 naming the currency. */
export function useProposeCardFxRates() {
  return useAdminMutation(
    async (body: ProposeCardFxRatesBody) => unwrap(await adminCall(cardSettingsEndpoints.proposeCardFxRates, { body })),
    [cardSettingsKey],
  );
}

/** `POST admin/card-settings/changes` (admin): propose both fees. @throws ApiError 120 naming the fee. */
export function useProposeCardFees() {
  return useAdminMutation(
    async (body: ProposeCardFeesBody) => unwrap(await adminCall(cardSettingsEndpoints.proposeCardFees, { body })),
    [cardSettingsKey],
  );
}

/** Approve (a different admin; 153 for the proposer, 176 when stale) or reject a fee or rate-table proposal. */
export function useDecideCardSettingChange() {
  return useAdminMutation(
    async (input: { id: number; decision: 'approve' | 'reject' }) =>
      unwrap(
        await adminCall(
          input.decision === 'approve'
            ? cardSettingsEndpoints.approveCardSettingChange
            : cardSettingsEndpoints.rejectCardSettingChange,
          { params: { id: input.id } },
        ),
      ),
    [cardSettingsKey],
  );
}
