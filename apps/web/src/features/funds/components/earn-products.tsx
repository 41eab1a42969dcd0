import { CURRENT_PRODUCT_ID, type FundProduct } from '@meridian/contracts/funds';
import { Alert, Button, Col, Row, Skeleton } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { ApiError } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';
import { openActionModal } from '../../../stores/modal-store.ts';
import { useFundProducts } from '../api/get-fund-products.ts';
import { fundAccessOf, showKycPrompt } from '../lib/fund-access.ts';
import { setEarnSubscribeHandler } from '../lib/earn-hero.ts';
import { FundAccessPrompt } from './fund-access-prompt.tsx';
import { useFundActions } from './fund-actions.tsx';
import { InterestCalculator } from './interest-calculator.tsx';
import { ProductCard } from './product-card.tsx';

/**
 * The product part of /product/earn, loaded as an Ant Design island after the
 * page's first paint: the products from `fund/v2/product` — the current fund and the
 * fixed-term funds with term, rate (tier table when tiered) and raise window — the calculator of
 * expected interest, and Subscribe / Redeem with their modals. A guest is asked to log in; a user
 * below level 2 gets the verification prompt of a 143 answer. It also gives the hero's "Subscribe
 * now" its action (`setEarnSubscribeHandler`).
 */
export function EarnProducts() {
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
  // Re-registered after every render, so that the hero always acts on the latest products.
  useEffect(() => setEarnSubscribeHandler(() => subscribe(current)));

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
      {actions.modals}
    </>
  );
}
