import { useTranslation } from 'react-i18next';
import { AntdIsland, antdIsland } from '../../../components/antd-island.tsx';
import { ProductPage, type ProductPageConfig } from '../../../components/product-page.tsx';
import { pathTo } from '../../../config/paths.ts';
import { useUserId } from '../../../lib/session.ts';
import { openActionModal } from '../../../stores/modal-store.ts';
import './exchange-page.css';
import exchangePanelStyles from '../../../styles/antd/exchange-panel.css?url';

/**
 * The swap form and Ant Design load after the page's first paint; the contracts it uses (zod
 * schemas built at load) are evaluated first, one module per task.
 */
const ExchangePanel = antdIsland(
  () => import('../components/exchange-panel.tsx').then((m) => m.ExchangePanel),
  exchangePanelStyles,
  [
    () => import('@meridian/contracts/pagination'),
    () => import('@meridian/contracts/money'),
    () => import('@meridian/contracts/coins'),
    () => import('@meridian/contracts/endpoint'),
    () => import('@meridian/contracts/market'),
    () => import('@meridian/contracts/exchange'),
  ],
);

/** The hero of the marketing texts; the steps are drawn beside the form instead of as a section. */
const CONFIG: ProductPageConfig = { page: 'exchange', highlights: ['pair'], sections: [] };
const STEPS = ['choose', 'quote', 'confirm'] as const;
/** The swap form's height while it loads: the guest's form at 1280 px and at 390 px, about. */
const EXCHANGE_PANEL_HEIGHT = 'var(--exchange-panel-height)';

/** /exchange: the product's hero, then the swap form with how it works beside it. */
export function ExchangePage() {
  const { t } = useTranslation('marketing');
  const { t: tExchange } = useTranslation('exchange');
  const userId = useUserId();
  return (
    <ProductPage
      config={CONFIG}
      heroActions={
        userId ? (
          <a href="#swap" className="btn btn--primary btn--lg">
            {t('exchange.swap')}
          </a>
        ) : (
          <button
            type="button"
            className="btn btn--primary btn--lg guest-only"
            onClick={() => openActionModal('login', { returnTo: pathTo('Exchange') })}
            data-testid="exchange-login"
          >
            {tExchange('form.loginToExchange')}
          </button>
        )
      }
    >
      <section id="swap" className="exchange-section">
        <div className="container exchange-layout">
          <AntdIsland minHeight={EXCHANGE_PANEL_HEIGHT} testId="exchange-panel-loading">
            <ExchangePanel />
          </AntdIsland>
          <aside className="exchange-aside">
            <h2>{t('exchange.sections.steps.title')}</h2>
            <ol>
              {STEPS.map((step) => (
                <li key={step}>
                  <strong>{t(`exchange.sections.steps.items.${step}.title`)}</strong> —{' '}
                  {t(`exchange.sections.steps.items.${step}.body`)}
                </li>
              ))}
            </ol>
          </aside>
        </div>
      </section>
    </ProductPage>
  );
}
