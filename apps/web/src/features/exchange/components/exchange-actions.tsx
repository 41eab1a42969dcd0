import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { pathTo } from '../../../config/paths.ts';
import { openActionModal } from '../../../stores/modal-store.ts';
import type { ExchangeMode } from '../lib/swap-form.ts';

export interface ExchangeActionsProps {
  isGuest: boolean;
  mode: ExchangeMode;
  hasQuote: boolean;
  isQuoting: boolean;
  isExecuting: boolean;
  /** The quote cannot be confirmed: run out, or refused by the server as expired. */
  isExpired: boolean;
  isOverBalance: boolean;
  isSlippageInvalid: boolean;
  onQuote: () => void;
  onConfirm: () => void;
  onFlash: () => void;
}

/**
 * The panel's buttons: log in (guest); get a quote, then refresh and confirm it (swap); get the live
 * rate, then exchange (flash).
 */
export function ExchangeActions(props: ExchangeActionsProps) {
  const { t } = useTranslation('exchange');
  const {
    isGuest,
    mode,
    hasQuote,
    isQuoting,
    isExecuting,
    isExpired,
    isOverBalance,
    isSlippageInvalid,
    onQuote,
    onConfirm,
    onFlash,
  } = props;

  let actions;
  if (isGuest) {
    actions = (
      <Button
        type="primary"
        size="large"
        block
        onClick={() => openActionModal('login', { returnTo: pathTo('Exchange') })}
        data-testid="exchange-login-submit"
      >
        {t('form.loginToExchange')}
      </Button>
    );
  } else if (mode === 'swap' && hasQuote) {
    actions = (
      <>
        <Button size="large" onClick={onQuote} loading={isQuoting} data-testid="quote-refresh">
          {t('quote.refresh')}
        </Button>
        <Button
          type="primary"
          size="large"
          disabled={isExpired || isOverBalance}
          loading={isExecuting}
          onClick={onConfirm}
          data-testid="quote-confirm"
        >
          {t('quote.confirm')}
        </Button>
      </>
    );
  } else if (mode === 'swap') {
    actions = (
      <Button type="primary" size="large" block loading={isQuoting} onClick={onQuote} data-testid="quote-get">
        {t('quote.get')}
      </Button>
    );
  } else if (hasQuote) {
    actions = (
      <Button
        type="primary"
        size="large"
        block
        disabled={isSlippageInvalid || isOverBalance}
        loading={isExecuting}
        onClick={onFlash}
        data-testid="flash-submit"
      >
        {t('flash.submit')}
      </Button>
    );
  } else {
    actions = (
      <Button type="primary" size="large" block loading={isQuoting} onClick={onQuote} data-testid="flash-rate">
        {t('flash.getRate')}
      </Button>
    );
  }
  return <div className="exchange-panel__actions">{actions}</div>;
}
