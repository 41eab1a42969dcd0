import { MONEY_ROUNDING } from '@meridian/contracts/money-format';
import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { money } from '../../../lib/money.ts';
import type { useWithdrawLimits } from '../api/get-withdraw-limits.ts';
import { checkWithdrawAmount, maxWithdrawable, type WithdrawLimits } from '../lib/withdraw-rules.ts';

/** Props of {@link WithdrawAmountField}. */
export interface WithdrawAmountFieldProps {
  coin: string;
  /** The available balance of `coin` (decimal string in the coin's units). */
  available: string;
  /** The network's rules with the balance; undefined until a network is chosen (no rule, Max disabled). */
  limits: WithdrawLimits | undefined;
  /** What is left of the level's withdrawal limits in USD; undefined while it loads. */
  limitsLeft: ReturnType<typeof useWithdrawLimits>['data'];
}

/**
 * The withdrawal's amount field: its rules (`checkWithdrawAmount`), a Max button, and under it the
 * available balance and the USD left of the level's limits (rolling 24 hours and this month).
 * Must sit inside the withdrawal's `<Form>`.
 */
export function WithdrawAmountField({ coin, available, limits, limitsLeft }: WithdrawAmountFieldProps) {
  const { t } = useTranslation('wallet');
  const form = Form.useFormInstance();
  const usd = (value: string) => money(value, 'USD', { unit: 'none', rounding: MONEY_ROUNDING.available });
  return (
    <Form.Item
      label={t('withdraw.amount')}
      name="amount"
      extra={
        <>
          <div>
            {t('withdraw.available', {
              amount: money(available, coin, { unit: 'none', rounding: MONEY_ROUNDING.available }),
              coin,
            })}
          </div>
          {limitsLeft && (
            <div data-testid="withdraw-limits-left">
              {t('withdraw.limitLeft', {
                per24h: usd(limitsLeft.per24h.leftUsd),
                perMonth: usd(limitsLeft.perMonth.leftUsd),
              })}
            </div>
          )}
        </>
      }
      rules={[
        { required: true, message: t('withdraw.amountRequired') },
        {
          validator: async (_rule, value: string | undefined) => {
            if (!value || !limits) return;
            const problem = checkWithdrawAmount(value, limits);
            if (problem) throw new Error(t(`withdraw.rules.${problem.key}`, problem));
          },
        },
      ]}
    >
      <Input
        inputMode="decimal"
        data-testid="withdraw-amount"
        suffix={
          <Button
            type="link"
            size="small"
            disabled={!limits}
            onClick={() => limits && form.setFieldValue('amount', maxWithdrawable(limits))}
            data-testid="withdraw-max"
          >
            {t('withdraw.max')}
          </Button>
        }
      />
    </Form.Item>
  );
}
