import { CURRENT_PRODUCT_ID, type FundProduct } from '@meridian/contracts/funds';
import { Alert, Button, Col, Row, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { ProductPage, type ProductPageConfig } from '../../../components/product-page.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';
import { openActionModal } from '../../../stores/modal-store.ts';
import { useFundProducts } from '../api/get-fund-products.ts';
import { FundAccessPrompt } from '../components/fund-access-prompt.tsx';
import { useFundActions } from '../components/fund-actions.tsx';
import { InterestCalculator } from '../components/interest-calculator.tsx';
import { ProductCard } from '../components/product-card.tsx';
import { fundAccessOf, showKycPrompt } from '../lib/fund-access.ts';
import './funds.css';

/** The marketing texts of the page (hero, steps, key terms) stay in `marketing.json`. */
const CONFIG: ProductPageConfig = {
  page: 'earn',
  highlights: ['yield', 'fees', 'interest'],
  sections: [
    { id: 'steps', variant: 'steps', items: ['verify', 'subscribe', 'interest', 'redeem'] },
    { id: 'facts', variant: 'facts', items: ['yield', 'fees', 'payout', 'maturity', 'eligibility'] },
  ],
  faq: ['risk', 'fees', 'who', 'fixedEarly', 'interest', 'coins'],
  hasSignUp: true,
};

/**
 * /product/earn (issue 17 "Web"): the products from `fund/v2/product` — the current fund and the
 * fixed-term funds with term, rate (tier table when tiered) and raise window — the calculator of
 * expected interest, and Subscribe / Redeem with their modals. A guest is asked to log in; a user
 * below level 2 gets the verification prompt of a 143 answer.
 */
export function EarnPage() {
  const { t } = useTranslation('funds');
  const location = useLocation();
  const userId = useUserId();
  const products = useFundProducts();
  const actions = useFundActions();
  const access = fundAccessOf(userId !== null, products.error);
  const current = products.data?.find((p) => p.productId === CURRENT_PRODUCT_ID) ?? products.data?.[0];
  const returnTo = `${location.pathname}${location.search}${location.hash}`;

  const subscribe = (product: FundProduct | undefined) => {
    if (access.kind === 'guest') {
      openActionModal('login', { returnTo });
      return;
    }
    if (access.kind === 'kyc' && products.error instanceof ApiError) {
      showKycPrompt(access.route, products.error.message, returnTo);
      return;
    }
    if (product) actions.subscribe(product);
  };

  const heroActions = (
    <button
      type="button"
      className="btn btn--primary btn--lg"
      onClick={() => subscribe(current)}
      data-testid="earn-subscribe"
    >
      {t('actions.subscribeNow')}
    </button>
  );

  const list =
    access.kind !== 'ok' ? (
      <FundAccessPrompt access={access} />
    ) : products.isPending ? (
      <Skeleton active />
    ) : products.isError ? (
      <Alert
        type="error"
        showIcon
        message={products.error.message}
        action={<Button onClick={() => void products.refetch()}>{t('actions.retry')}</Button>}
      />
    ) : (
      <Row gutter={[16, 16]} data-testid="fund-products">
        {products.data.map((product) => (
          <Col xs={24} md={12} xl={8} key={product.productId}>
            <ProductCard product={product} onSubscribe={subscribe} onRedeem={actions.redeem} />
          </Col>
        ))}
      </Row>
    );

  return (
    <ProductPage
      config={CONFIG}
      heroActions={heroActions}
      intro={
        <>
          <section id="products" className="product-section">
            <div className="container">
              <div className="section-head">
                <h2>{t('products.title')}</h2>
                <p>{t('products.subtitle')}</p>
              </div>
              {list}
            </div>
          </section>
          {products.data && products.data.length > 0 && (
            <section id="calculator" className="product-section fund-calculator-section">
              <div className="container">
                <div className="section-head">
                  <h2>{t('calculator.title')}</h2>
                  <p>{t('calculator.subtitle')}</p>
                </div>
                <InterestCalculator products={products.data} />
              </div>
            </section>
          )}
        </>
      }
    >
      {actions.modals}
    </ProductPage>
  );
}
