import { BUSINESS_CODES } from '@meridian/contracts/codes';
import { isAssetCode } from '@meridian/contracts/money';
import { type WalletRecord, type WithdrawCheckBody, walletEndpoints } from '@meridian/contracts/wallet';
import type { FormInstance } from 'antd';
import { useState } from 'react';
import { useSecuredAction } from '../../../hooks/use-secured-action.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { useCheckWithdrawal } from '../api/check-withdrawal.ts';
import { useInvalidateWallet } from '../api/wallet-keys.ts';

/** The withdrawal form's fields, as typed (trimmed on sending). */
export interface WithdrawValues {
  address: string;
  amount: string;
}

/** The withdrawal fields the dry run may name and the form shows inline (the others go to the alert). */
const WITHDRAW_FORM_FIELDS = ['address', 'amount'] as const;
/** Over the withdrawal limit of the user's level: shown under the amount, with the USD left. */
const STATUS_WITHDRAW_LIMIT = BUSINESS_CODES.WITHDRAW_LIMIT_EXCEEDED.code;

/** What {@link useWithdrawSubmit} needs: the form, the coin and network chosen, and what to do on a limit refusal. */
export interface WithdrawSubmitOptions {
  form: FormInstance<WithdrawValues>;
  coin: string;
  network: string | undefined;
  /** Called when the dry run refuses the amount over the level's limit (to refresh the USD left). */
  onLimitRefused: () => void;
}

/**
 * Sends a withdrawal in two steps: the server's dry run (`wallet/withdraw/check`), whose refusals go on
 * their fields (a limit refusal on the amount) or into `formError`; then the security check
 * (`walletEndpoints.withdraw`). On success the form is reset, the wallet queries refreshed and the
 * record kept as `result` (the result card replaces the form; `clearResult` shows the form again).
 */
export function useWithdrawSubmit({ form, coin, network, onLimitRefused }: WithdrawSubmitOptions) {
  const invalidate = useInvalidateWallet();
  const checkWithdrawal = useCheckWithdrawal();
  const [formError, setFormError] = useState<string | null>(null);
  const [result, setResult] = useState<WalletRecord | null>(null);
  const withdraw = useSecuredAction({
    endpoint: walletEndpoints.withdraw,
    // The result card is the confirmation: no generic "Success" toast over it.
    quietSuccess: true,
    onSuccess: (content) => {
      setResult(content);
      form.resetFields();
      invalidate();
    },
  });
  const openWithdrawal = (body: WithdrawCheckBody) => withdraw.run({ body });

  const submit = (values: WithdrawValues) => {
    if (!network || !isAssetCode(coin)) return;
    setFormError(null);
    const body = { coin, network, address: values.address.trim(), amount: values.amount.trim() };
    checkWithdrawal.mutate(body, {
      onSuccess: () => openWithdrawal(body),
      onError: (error) => {
        if (!(error instanceof ApiError)) return;
        if (error.response.statusCode === STATUS_WITHDRAW_LIMIT) {
          form.setFields([{ name: 'amount', errors: [error.response.message] }]);
          onLimitRefused();
          return;
        }
        setFormError(applyServerErrors(form, error.response, WITHDRAW_FORM_FIELDS));
      },
    });
  };

  return {
    submit,
    formError,
    clearFormError: () => setFormError(null),
    result,
    clearResult: () => setResult(null),
    isPending: checkWithdrawal.isPending || withdraw.isPending,
  };
}
