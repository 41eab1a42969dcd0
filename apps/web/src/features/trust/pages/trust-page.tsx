import { TrustIcon, UserIcon, EarnIcon } from '../../../components/icons.tsx';
import { AntdIsland, antdIsland } from '../../../components/antd-island.tsx';
import { ProductPage, type ProductPageConfig } from '../../../components/product-page.tsx';
import { useUserId } from '../../../lib/session.ts';
import trustProductStyles from '../../../styles/antd/trust-product.css?url';

/** The marketing content of the trust (texts in the `marketing` namespace). */
const CONFIG: ProductPageConfig = {
  page: 'trust',
  highlights: ['asset', 'fee'],
  sections: [
    {
      id: 'why',
      variant: 'cards',
      items: ['custody', 'dedicated', 'transparent'],
      Icons: { custody: TrustIcon, dedicated: UserIcon, transparent: EarnIcon },
    },
    { id: 'steps', variant: 'steps', items: ['verify', 'entrust', 'follow'] },
    { id: 'facts', variant: 'facts', items: ['asset', 'fee', 'eligibility'] },
  ],
  faq: ['what', 'fee', 'who', 'withdraw', 'inactivity', 'risk'],
  hasSignUp: true,
};

/** A user's trusts and the create form load after the page's first paint. */
const TrustProduct = antdIsland(
  () => import('../components/trust-product.tsx').then((m) => m.TrustProduct),
  trustProductStyles,
);

/**
 * `/product/trust`: for guests the product page (hero with the 2 % fee,
 * sections, sign-up); for a signed-in user the same hero, then the product — how the fee works,
 * their trusts and the create form — or, below level 2, the verification prompt.
 */
export function TrustPage() {
  const userId = useUserId();
  if (!userId) return <ProductPage config={CONFIG} />;
  return (
    <ProductPage config={{ ...CONFIG, sections: [], hasSignUp: false }}>
      <section className="product-section" data-testid="trust-product">
        <div className="container">
          <AntdIsland minHeight={480} testId="trust-product-loading">
            <TrustProduct />
          </AntdIsland>
        </div>
      </section>
    </ProductPage>
  );
}
