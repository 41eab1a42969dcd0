import {
  CARD_TOPUP_QUOTE_TTL_MS,
  type Card,
  type CardConfig,
  type CardTopUpCoin,
  type CardTopUpQuote,
  cardEndpoints,
} from '@meridian/contracts/cards';
import { displayRate } from '@meridian/contracts/money';
import { Alert, Button, Descriptions, Form, Input, Progress, Result, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal.tsx';
import { useSecuredAction } from '../../../hooks/use-secured-action.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useInvalidateCards } from '../api/card-keys.ts';
import { useQuoteTopUp } from '../api/quote-top-up.ts';
import { useNow } from '../hooks/use-now.ts';
import { money, secondsLeft } from '../lib/card-format.ts';
import { serverFieldErrors } from '../lib/form-refusals.ts';
import { useWalletAvailable } from '../lib/wallet-available.ts';

interface TopUpValues {
  coin: CardTopUpCoin;
  amount: string;
}

/** Where a refused quote shows: the coin off its peg (214) on the coin, an amount refusal on the amount. */
const FIELD_OF_CODE: Partial<Record<number, (string | number)[]>> = { 214: ['coin'], 130: ['amount'], 132: ['amount'] };

/**
 * Top up a card from a stablecoin: ask a quote — the coin amount that leaves the wallet,
 * the amount the card receives and the locked rate (1:1 for USD cards, EURE → EUR 1:1) — valid
 * 30 s with a visible countdown; confirm opens the security check (CARD_TOPUP) with the quote id, so
 * the quote executes exactly once. An expired quote asks for a new one.
 */
export function TopUpModal({ card, config, onClose }: { card: Card; config: CardConfig; onClose: () => void }) {
  const { t } = useTranslation('cards');
  const [form] = Form.useForm<TopUpValues>();
  const availableOf = useWalletAvailable();
  const quoteCall = useQuoteTopUp(card.id);
  const invalidate = useInvalidateCards();
  const [quote, setQuote] = useState<CardTopUpQuote | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [isDone, setDone] = useState(false);
  const nowMs = useNow(250, quote !== null && !isDone);
  const coin = Form.useWatch('coin', form) ?? config.topUpCoins[0]?.coin ?? 'USDT';
  const left = quote ? secondsLeft(quote.expiresAt, nowMs) : 0;
  const isExpired = quote !== null && left === 0;

  const ask = (values: TopUpValues) => {
    setFormError(null);
    quoteCall.mutate(
      { coin: values.coin, amount: values.amount.trim() },
      {
        onSuccess: setQuote,
        onError: (error) => {
          if (!(error instanceof ApiError)) return setFormError(String(error));
          const refusal = serverFieldErrors(error.response, FIELD_OF_CODE);
          form.setFields(refusal.fields.map((e) => ({ name: e.name as never, errors: e.errors })));
          setFormError(refusal.message);
        },
      },
    );
  };

  const topUp = useSecuredAction({
    endpoint: cardEndpoints.topUp,
    quietSuccess: true,
    refusalsShownOn: 'form',
    // The quote is not a field: every refusal of its execution is shown above the button.
    fieldOf: () => undefined,
    onSuccess: () => {
      setDone(true);
      invalidate();
    },
  });
  const shownError = formError ?? topUp.error;

  const execute = (current: CardTopUpQuote) => {
    setFormError(null);
    // The quote id is the natural key: one quote tops up once, whatever is retried.
    topUp.run({ params: { id: card.id }, body: { quoteId: current.quoteId } }, { idempotencyKey: current.quoteId });
  };

  return (
    <AppModal
      open
      title={t('topUp.title', { card: card.last4 })}
      footer={null}
      onCancel={onClose}
      data-testid="card-topup-modal"
    >
      {isDone && quote ? (
        <div data-testid="card-topup-result">
          <Result
            status="success"
            title={t('topUp.done')}
            subTitle={t('topUp.doneBody', {
              credit: money(quote.creditAmount, quote.currency),
              paid: money(quote.amount, quote.coin),
            })}
            style={{ paddingBlock: 12 }}
          />
          <Button type="primary" block onClick={onClose} data-testid="card-topup-done">
            {t('actions.done')}
          </Button>
        </div>
      ) : (
        <Form<TopUpValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={{ coin: config.topUpCoins[0]?.coin ?? 'USDT' }}
          onFinish={ask}
          onValuesChange={() => {
            setFormError(null);
            topUp.clearErrors();
            setQuote(null);
          }}
          data-testid="card-topup-form"
        >
          <Form.Item name="coin" label={t('topUp.coin')}>
            <Select
              data-testid="card-topup-coin"
              options={config.topUpCoins.map((option) => ({ value: option.coin, label: option.coin }))}
            />
          </Form.Item>
          <Form.Item
            name="amount"
            label={t('topUp.amount')}
            extra={
              <span data-testid="card-topup-available">
                {t('topUp.available', { amount: money(availableOf(coin), coin) })}
              </span>
            }
            rules={[
              { required: true, message: t('topUp.amountRequired') },
              { pattern: /^\d+(\.\d+)?$/, message: t('topUp.amountInvalid') },
            ]}
          >
            <Input inputMode="decimal" autoComplete="off" suffix={coin} data-testid="card-topup-amount" />
          </Form.Item>
          {quote && (
            <div data-testid="card-topup-quote" style={{ marginBottom: 16 }}>
              <Descriptions
                size="small"
                column={1}
                bordered
                items={[
                  { key: 'pay', label: t('topUp.pay'), children: money(quote.amount, quote.coin) },
                  {
                    key: 'credit',
                    label: t('topUp.credit'),
                    children: (
                      <strong data-testid="card-topup-credit">{money(quote.creditAmount, quote.currency)}</strong>
                    ),
                  },
                  {
                    key: 'rate',
                    label: t('topUp.rate'),
                    children: `1 ${quote.coin} = ${displayRate(quote.rate)} ${quote.currency}`,
                  },
                ]}
              />
              <div className="card-quote__countdown" data-testid="card-topup-countdown" style={{ marginTop: 8 }}>
                {isExpired ? (
                  <Alert type="warning" showIcon message={t('topUp.expired')} />
                ) : (
                  <>
                    <Progress
                      percent={Math.round(((left * 1000) / CARD_TOPUP_QUOTE_TTL_MS) * 100)}
                      showInfo={false}
                      size="small"
                    />
                    {t('topUp.lockedFor', { count: left })}
                  </>
                )}
              </div>
            </div>
          )}
          {shownError && (
            <Alert
              type="error"
              showIcon
              style={{ marginBottom: 12 }}
              message={shownError}
              data-testid="card-topup-error"
            />
          )}
          {quote && !isExpired ? (
            <Button type="primary" block onClick={() => execute(quote)} data-testid="card-topup-confirm">
              {t('topUp.confirm')}
            </Button>
          ) : (
            <Button
              type="primary"
              htmlType="submit"
              block
              loading={quoteCall.isPending}
              data-testid="card-topup-quote-button"
            >
              {isExpired ? t('topUp.requote') : t('topUp.getQuote')}
            </Button>
          )}
        </Form>
      )}
    </AppModal>
  );
}
