import { parseAmountMinor } from '@meridian/contracts/money';
import { money } from '../../../lib/money.ts';
import {
  TRUST_ASSET,
  TRUST_FUND_MIN_MINOR,
  type TrustDetail,
  trustEndpoints,
  trustEntrustment,
} from '@meridian/contracts/trust';
import { Alert, Button, Descriptions, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal.tsx';
import { useWalletBalance } from '../../../lib/get-wallet-balance.ts';
import { useSecuredAction } from '../../../hooks/use-secured-action.ts';
import { useInvalidateTrusts } from '../api/trust-keys.ts';

/** Read a typed BTC amount; null while it is not a valid positive amount of at most 8 decimals. */
function readBtcMinor(text: string): bigint | null {
  try {
    const minor = parseAmountMinor(text.trim(), TRUST_ASSET);
    return minor > 0n ? minor : null;
  } catch {
    return null;
  }
}

const btc = (minor: bigint) => money(minor, TRUST_ASSET);

/**
 * Fund (`direction` fund) or withdraw from a trust. Funding shows, before anything is confirmed, the
 * 2 % entrustment fee (rounded up to the satoshi, `trustEntrustment` — the server's own rule) and
 * the net that reaches the trust; withdrawing says there is no fee. "Continue" opens the security
 * check with the call's descriptor (`TRUST_FUND` / `TRUST_WITHDRAW`) and one idempotency key per
 * opening of the modal, so a retry never moves money twice.
 */
export function MoveModal({
  trust,
  direction,
  onClose,
}: {
  trust: TrustDetail;
  direction: 'fund' | 'withdraw';
  onClose(): void;
}) {
  const { t } = useTranslation('trust');
  const [form] = Form.useForm<{ amount: string }>();
  const balance = useWalletBalance();
  const invalidate = useInvalidateTrusts();
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const onSuccess = () => {
    invalidate();
    onClose();
  };
  const fund = useSecuredAction({ endpoint: trustEndpoints.fundTrust, onSuccess });
  const withdraw = useSecuredAction({ endpoint: trustEndpoints.withdrawTrust, onSuccess });
  const text = Form.useWatch('amount', form) ?? '';
  const amountMinor = readBtcMinor(text);
  const walletText =
    balance.data?.wallet.accounts[0]?.assets.find((a) => a.coinCode === TRUST_ASSET && a.type === 'available')
      ?.amount ?? '0';
  const availableMinor =
    direction === 'fund' ? parseAmountMinor(walletText, TRUST_ASSET) : parseAmountMinor(trust.holding, TRUST_ASSET);
  const split = amountMinor !== null && direction === 'fund' ? trustEntrustment(amountMinor) : null;

  const validateAmount = async (_rule: unknown, value: string | undefined) => {
    const minor = readBtcMinor(value ?? '');
    if (minor === null) throw new Error(t('move.amountInvalid'));
    if (direction === 'fund' && minor < TRUST_FUND_MIN_MINOR)
      throw new Error(t('move.amountBelowMin', { amount: btc(TRUST_FUND_MIN_MINOR) }));
    if (minor > availableMinor) throw new Error(t('move.amountAboveAvailable', { amount: btc(availableMinor) }));
  };

  const submit = ({ amount }: { amount: string }) => {
    const input = { params: { id: trust.id }, body: { amount: amount.trim() } };
    (direction === 'fund' ? fund : withdraw).run(input, { idempotencyKey });
  };

  return (
    <AppModal
      open
      title={t(direction === 'fund' ? 'move.fundTitle' : 'move.withdrawTitle', { name: trust.name })}
      onCancel={onClose}
      footer={null}
      data-testid={`trust-${direction}-modal`}
    >
      <Form form={form} layout="vertical" requiredMark={false} onFinish={submit}>
        <Form.Item
          name="amount"
          label={t('move.amount')}
          extra={t(direction === 'fund' ? 'move.walletAvailable' : 'move.trustHolds', { amount: btc(availableMinor) })}
          rules={[{ validator: validateAmount }]}
        >
          <Input inputMode="decimal" suffix={TRUST_ASSET} autoComplete="off" data-testid="trust-amount" />
        </Form.Item>
        {direction === 'fund' ? (
          <>
            <Descriptions
              column={1}
              size="small"
              bordered
              items={[
                { key: 'amount', label: t('move.entrusted'), children: amountMinor === null ? '–' : btc(amountMinor) },
                {
                  key: 'fee',
                  label: t('move.fee'),
                  children: <span data-testid="trust-fee-preview">{split ? btc(split.feeMinor) : '–'}</span>,
                },
                {
                  key: 'net',
                  label: t('move.net'),
                  children: <strong data-testid="trust-net-preview">{split ? btc(split.netMinor) : '–'}</strong>,
                },
              ]}
            />
            <Alert type="info" showIcon message={t('move.feeNote')} style={{ marginTop: 12 }} />
          </>
        ) : (
          <Alert type="info" showIcon message={t('move.noFee')} />
        )}
        <Button type="primary" htmlType="submit" block style={{ marginTop: 16 }} data-testid="trust-move-continue">
          {t('move.continue')}
        </Button>
      </Form>
    </AppModal>
  );
}
