import type { CardConfirmation } from '@meridian/contracts/cards';
import { Alert, Button, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { isolateText } from '../../../lib/bidi.ts';
import { useCardConfirmations } from '../api/get-card-confirmations.ts';
import { useConfirmPayment } from '../api/confirm-payment.ts';
import { useNow } from '../hooks/use-now.ts';
import { money, secondsLeft } from '../lib/card-format.ts';

function ConfirmationItem({ item, focusId }: { item: CardConfirmation; focusId: number | null }) {
  const { t } = useTranslation('cards');
  const nowMs = useNow(1000, true);
  const confirm = useConfirmPayment();
  const left = secondsLeft(item.expiresAt, nowMs);
  const minutes = Math.floor(left / 60);
  const seconds = String(left % 60).padStart(2, '0');
  const answer = (isApproved: boolean) => confirm.mutate({ id: item.id, isApproved });
  const refusal = confirm.error instanceof ApiError ? confirm.error.message : null;
  return (
    <Alert
      type={focusId === item.id ? 'error' : 'warning'}
      showIcon
      data-testid="card-confirmation"
      data-confirmation-id={item.id}
      message={t(item.reason === 'THREE_DS' ? 'confirm.titleThreeDs' : 'confirm.titleAskAbove')}
      description={
        <Flex vertical gap={8}>
          <span data-testid="card-confirmation-text">
            {t('confirm.body', {
              amount: money(item.amount, item.currency),
              merchant: isolateText(item.merchantName ?? t('tx.unknownMerchant')),
              last4: item.last4,
            })}
          </span>
          <span className="card-quote__countdown">
            {left > 0 ? t('confirm.left', { time: `${minutes}:${seconds}` }) : t('confirm.expired')}
          </span>
          {refusal && <span role="alert">{refusal}</span>}
          <Flex gap={8} wrap>
            <Button
              type="primary"
              size="small"
              loading={confirm.isPending && confirm.variables.isApproved}
              disabled={left === 0 || confirm.isPending}
              onClick={() => answer(true)}
              data-testid="card-confirmation-approve"
            >
              {t('confirm.approve')}
            </Button>
            <Button
              danger
              size="small"
              loading={confirm.isPending && !confirm.variables.isApproved}
              disabled={left === 0 || confirm.isPending}
              onClick={() => answer(false)}
              data-testid="card-confirmation-reject"
            >
              {t('confirm.reject')}
            </Button>
          </Flex>
        </Flex>
      }
    />
  );
}

/**
 * Payments waiting for the user's confirmation — a 3-D Secure online payment or an in-person one
 * above the card's "ask me above X" (valid 5 minutes) — each with its countdown
 * and Approve / Reject. The list is polled while the card page is open; the push and the message
 * link here (`?confirm=<id>` highlights that one).
 */
export function ConfirmationBanner({ focusId }: { focusId: number | null }) {
  const confirmations = useCardConfirmations();
  const items = confirmations.data ?? [];
  if (items.length === 0) return null;
  return (
    <Flex vertical gap={8} data-testid="card-confirmations">
      {items.map((item) => (
        <ConfirmationItem key={item.id} item={item} focusId={focusId} />
      ))}
    </Flex>
  );
}
