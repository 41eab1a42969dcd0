import { displayRate } from '@meridian/contracts/money';
import type { SwapRecord } from '@meridian/contracts/exchange';
import { Tag } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { money } from '../../../lib/money.ts';

const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm';

/** When a swap was done, local time; a date and time never break inside (390 px split "2026-11-24" from "17:52"). */
export function SwapTime({ executedAt }: { executedAt: string }) {
  return (
    <time className="swap-history__time" dateTime={executedAt} data-testid="swap-time">
      {dayjs(executedAt).format(DATE_TIME_FORMAT)}
    </time>
  );
}

/** Swap or flash exchange. */
export function SwapKindTag({ record }: { record: SwapRecord }) {
  const { t } = useTranslation('exchange');
  return <Tag color={record.kind === 'FLASH' ? 'purple' : 'blue'}>{t(`history.${record.kind}`)}</Tag>;
}

/** The rate the swap was done at ('1 USDT = 0.999 USDE'). */
export function SwapRate({ record }: { record: SwapRecord }) {
  const { t } = useTranslation('exchange');
  return (
    <span className="swap-history__rate">
      {t('history.rateValue', { from: record.from, to: record.to, rate: displayRate(record.rate) })}
    </span>
  );
}

/** What the user paid. */
export function SwapPaid({ record }: { record: SwapRecord }) {
  return <span data-testid="swap-paid">{money(record.fromAmount, record.from)}</span>;
}

/** What the user received. */
export function SwapReceived({ record }: { record: SwapRecord }) {
  return <span data-testid="swap-received">{money(record.toAmount, record.to)}</span>;
}
