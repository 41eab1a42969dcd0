import { TrustIcon, UserIcon, EarnIcon } from '../../../components/icons.tsx';
import { ProductPage, type ProductPageConfig } from '../../../components/product-page.tsx';

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
  hasSignUp: true,
};

/** /product/trust: the BTC trust. */
export function TrustPage() {
  return <ProductPage config={CONFIG} />;
}
