import type { SwapRecord } from '@meridian/contracts/exchange';
import { Button, Result } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../../config/paths.ts';
import { money } from '../../../lib/money.ts';

/** A done swap or flash exchange: what was paid and received, another exchange, the history. */
export function ExchangeResult({ record, onAgain }: { record: SwapRecord; onAgain: () => void }) {
  const { t } = useTranslation('exchange');
  const resultRef = useRef<HTMLDivElement>(null);

  // The result is shorter than the form it replaces: on a phone the page stayed scrolled to where
  // Confirm was and cut the result's top off. Bring it into view (below the fixed header).
  useEffect(() => {
    resultRef.current?.scrollIntoView({ block: 'nearest' });
  }, [record]);

  return (
    <div className="exchange-panel" ref={resultRef} data-testid="exchange-result">
      <Result
        status="success"
        title={t('result.title')}
        subTitle={t('result.subtitle', {
          pay: money(record.fromAmount, record.from),
          receive: money(record.toAmount, record.to),
        })}
        extra={[
          <Button key="again" type="primary" onClick={onAgain} data-testid="exchange-again">
            {t('result.again')}
          </Button>,
          <Link
            key="history"
            to={pathTo('SwapHistory')}
            className="exchange-panel__link"
            data-testid="exchange-history-link"
          >
            {t('result.history')}
          </Link>,
        ]}
      />
    </div>
  );
}
