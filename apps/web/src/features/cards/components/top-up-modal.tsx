import type { Card, CardConfig, CardTopUpCoin, CardTopUpQuote } from '@meridian/contracts/cards';
import { Alert, Button, Form, Input, Result, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal.tsx';
import { type TopUpValues, useTopUp } from '../hooks/use-top-up.ts';
import { money } from '../lib/card-format.ts';
import { useWalletAvailable } from '../lib/wallet-available.ts';
import { TopUpQuote } from './top-up-quote.tsx';

/**
 * Top up a card from a stablecoin: ask a quote — the coin amount that leaves the wallet,
 * the amount the card receives and the locked rate (1:1 for USD cards, EURE → EUR 1:1) — valid
 * 30 s with a visible countdown; confirm opens the security check (CARD_TOPUP) with the quote id, so
 * the quote executes exactly once. An expired quote asks for a new one.
 */
export function TopUpModal({ card, config, onClose }: { card: Card; config: CardConfig; onClose: () => void }) {
  const { t } = useTranslation('cards');
  const [form] = Form.useForm<TopUpValues>();
  const topUp = useTopUp(card, form);
  const { quote, isExpired } = topUp;
  const coin = Form.useWatch('coin', form) ?? config.topUpCoins[0]?.coin ?? 'USDT';

  return (
    <AppModal
      open
      title={t('topUp.title', { card: card.last4 })}
      footer={null}
      onCancel={onClose}
      data-testid="card-topup-modal"
    >
      {topUp.isDone && quote ? (
        <TopUpResult quote={quote} onDone={onClose} />
      ) : (
        <Form<TopUpValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={{ coin: config.topUpCoins[0]?.coin ?? 'USDT' }}
          onFinish={topUp.ask}
          onValuesChange={topUp.reset}
          data-testid="card-topup-form"
        >
          <TopUpFields config={config} coin={coin} />
          {quote && <TopUpQuote quote={quote} secondsLeft={topUp.secondsLeft} isExpired={isExpired} />}
          {topUp.error && (
            <Alert
              type="error"
              showIcon
              style={{ marginBottom: 12 }}
              message={topUp.error}
              data-testid="card-topup-error"
            />
          )}
          {quote && !isExpired ? (
            <Button type="primary" block onClick={() => topUp.execute(quote)} data-testid="card-topup-confirm">
              {t('topUp.confirm')}
            </Button>
          ) : (
            <Button
              type="primary"
              htmlType="submit"
              block
              loading={topUp.isQuoting}
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

/** The top-up done: what the card received and what the wallet paid, and Done. */
function TopUpResult({ quote, onDone }: { quote: CardTopUpQuote; onDone: () => void }) {
  const { t } = useTranslation('cards');
  return (
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
      <Button type="primary" block onClick={onDone} data-testid="card-topup-done">
        {t('actions.done')}
      </Button>
    </div>
  );
}

/** The coin paid (the configured top-up coins) and its amount, with the wallet's available amount. */
function TopUpFields({ config, coin }: { config: CardConfig; coin: CardTopUpCoin }) {
  const { t } = useTranslation('cards');
  const availableOf = useWalletAvailable();
  return (
    <>
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
    </>
  );
}
