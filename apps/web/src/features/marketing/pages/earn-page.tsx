import { EarnIcon, ExchangeIcon } from '../../../components/icons.tsx';
import { ProductPage, type ProductPageConfig } from '../../../components/product-page.tsx';

const CONFIG: ProductPageConfig = {
  page: 'earn',
  highlights: ['yield', 'fees', 'interest'],
  sections: [
    { id: 'funds', variant: 'cards', items: ['current', 'fixed'], Icons: { current: ExchangeIcon, fixed: EarnIcon } },
    { id: 'steps', variant: 'steps', items: ['verify', 'subscribe', 'interest', 'redeem'] },
    { id: 'facts', variant: 'facts', items: ['yield', 'fees', 'payout', 'maturity', 'eligibility'] },
  ],
  hasSignUp: true,
};

/** /product/earn: the current and fixed-term funds. */
export function EarnPage() {
  return <ProductPage config={CONFIG} />;
}
