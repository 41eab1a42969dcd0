import {
  loanSettingsEndpoints,
  type ProposeLoanRiskBody,
  type UpdateLoanCoinBody,
  type UpdateLoanLimitsBody,
  type UpdateLoanTermBody,
} from '@meridian/contracts/loan-settings';
import type { LoanCoin } from '@meridian/contracts/loans';
import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../lib/api-client.ts';
import { adminCall, adminFetch } from './admin-call.ts';
import { useAdminMutation } from './use-admin-mutation.ts';

/** Query key of the loan settings (under `admin`, forgotten at sign-out). */
export const loanSettingsKey = ['admin', 'settings', 'loan-settings'] as const;

/** `GET admin/loan-settings`: terms, LTV levels, fee, limits, coins and the proposed changes. */
export function useLoanSettings() {
  return useQuery({ queryKey: loanSettingsKey, queryFn: () => adminFetch(loanSettingsEndpoints.getLoanSettings, {}) });
}

/** `PUT admin/loan-settings/terms/:termDays` (admin): APR and/or switch, at once. @throws ApiError 120 naming `annualRatePct`. */
export function useUpdateLoanTerm() {
  return useAdminMutation(
    async (input: { termDays: number } & UpdateLoanTermBody) => {
      const { termDays, ...body } = input;
      return unwrap(await adminCall(loanSettingsEndpoints.updateLoanTerm, { params: { termDays }, body }));
    },
    [loanSettingsKey],
  );
}

/** `PUT admin/loan-settings/coins/:coin` (admin): switch and/or minimum principal. @throws ApiError 120 naming `minPrincipal`. */
export function useUpdateLoanCoin() {
  return useAdminMutation(
    async (input: { coin: LoanCoin } & UpdateLoanCoinBody) => {
      const { coin, ...body } = input;
      return unwrap(await adminCall(loanSettingsEndpoints.updateLoanCoin, { params: { coin }, body }));
    },
    [loanSettingsKey],
  );
}

/** `PUT admin/loan-settings/limits` (admin): the per-user maximum outstanding. @throws ApiError 120 naming `maxOutstandingUsd`. */
export function useUpdateLoanLimits() {
  return useAdminMutation(
    async (body: UpdateLoanLimitsBody) => unwrap(await adminCall(loanSettingsEndpoints.updateLoanLimits, { body })),
    [loanSettingsKey],
  );
}

/** `POST admin/loan-settings/changes` (admin): propose LTV levels and fee. @throws ApiError 120 naming the field. */
export function useProposeLoanRisk() {
  return useAdminMutation(
    async (body: ProposeLoanRiskBody) => unwrap(await adminCall(loanSettingsEndpoints.proposeLoanRisk, { body })),
    [loanSettingsKey],
  );
}

/** Approve (a different admin; 153 for the proposer, 176 when stale) or reject a proposal. */
export function useDecideLoanSettingChange() {
  return useAdminMutation(
    async (input: { id: number; decision: 'approve' | 'reject' }) =>
      unwrap(
        await adminCall(
          input.decision === 'approve'
            ? loanSettingsEndpoints.approveLoanSettingChange
            : loanSettingsEndpoints.rejectLoanSettingChange,
          { params: { id: input.id } },
        ),
      ),
    [loanSettingsKey],
  );
}
