import { CARD_TOPUP_QUOTE_TTL_MS, type CardTopUpQuote } from '@meridian/contracts/cards';
import { displayRate } from '@meridian/contracts/money';
import { Alert, Descriptions, Progress } from 'antd';
import { useTranslation } from 'react-i18next';
import { money } from '../lib/card-format.ts';

/**
 * A top-up quote: what the wallet pays, what the card receives and the locked rate, with the
 * seconds it stays valid (a bar) or, once expired, a warning.
 */
export function TopUpQuote({
  quote,
  secondsLeft,
  isExpired,
}: {
  quote: CardTopUpQuote;
  secondsLeft: number;
  isExpired: boolean;
}) {
  const { t } = useTranslation('cards');
  return (
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
            children: <strong data-testid="card-topup-credit">{money(quote.creditAmount, quote.currency)}</strong>,
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
              percent={Math.round(((secondsLeft * 1000) / CARD_TOPUP_QUOTE_TTL_MS) * 100)}
              showInfo={false}
              size="small"
            />
            {t('topUp.lockedFor', { count: secondsLeft })}
          </>
        )}
      </div>
    </div>
  );
}
