import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { AntdIsland, antdIsland } from '../../../components/antd-island.tsx';
import { ProductPage, type ProductPageConfig } from '../../../components/product-page.tsx';
import { useUserId } from '../../../lib/session.ts';
import { openActionModal } from '../../../stores/modal-store.ts';
import { runEarnSubscribe } from '../lib/earn-hero.ts';
import './funds.css';
import earnProductsStyles from '../../../styles/antd/earn-products.css?url';

/** The marketing texts of the page (hero, steps, key terms) stay in `marketing.json`. */
const CONFIG: ProductPageConfig = {
  page: 'earn',
  highlights: ['yield', 'fees', 'interest'],
  sections: [
    { id: 'steps', variant: 'steps', items: ['verify', 'subscribe', 'interest', 'redeem'] },
    { id: 'facts', variant: 'facts', items: ['yield', 'fees', 'payout', 'maturity', 'eligibility', 'earningDays'] },
  ],
  faq: ['risk', 'fees', 'who', 'fixedEarly', 'interest', 'earning', 'coins'],
  hasSignUp: true,
};

/**
 * The products, the calculator and their modals load after the page's first paint; the contracts
 * they use (zod schemas built at load) are evaluated first, one module per task.
 */
const EarnProducts = antdIsland(
  () => import('../components/earn-products.tsx').then((m) => m.EarnProducts),
  earnProductsStyles,
  [
    () => import('@meridian/contracts/pagination'),
    () => import('@meridian/contracts/security'),
    () => import('@meridian/contracts/money'),
    () => import('@meridian/contracts/endpoint'),
    () => import('@meridian/contracts/funds'),
  ],
);

/**
 * /product/earn: the hero, then the products and the calculator of expected
 * interest (`EarnProducts`, an Ant Design island), the steps, the key terms and the FAQ. "Subscribe
 * now" asks a guest to log in, and for a user opens the current fund's subscription (or the
 * verification prompt) through the island.
 */
export function EarnPage() {
  const { t } = useTranslation('funds');
  const location = useLocation();
  const userId = useUserId();
  const returnTo = `${location.pathname}${location.search}${location.hash}`;

  const heroActions = (
    <button
      type="button"
      className="btn btn--primary btn--lg"
      onClick={() => {
        if (!userId) openActionModal('login', { returnTo });
        else if (!runEarnSubscribe()) document.getElementById('products')?.scrollIntoView();
      }}
      data-testid="earn-subscribe"
    >
      {t('actions.subscribeNow')}
    </button>
  );

  return (
    <ProductPage
      config={CONFIG}
      heroActions={heroActions}
      intro={
        <AntdIsland minHeight="var(--earn-products-height)" testId="earn-products-loading">
          <EarnProducts />
        </AntdIsland>
      }
    />
  );
}
