import { CardIcon, EarnIcon, ExchangeIcon, StablecoinIcon } from '../../../components/icons.tsx';
import { ProductPage, type ProductPageConfig } from '../../../components/product-page.tsx';

const CONFIG: ProductPageConfig = {
  page: 'usde',
  highlights: [],
  sections: [
    {
      id: 'uses',
      variant: 'cards',
      items: ['hold', 'swap', 'spend', 'earn'],
      Icons: { hold: StablecoinIcon, swap: ExchangeIcon, spend: CardIcon, earn: EarnIcon },
    },
    { id: 'steps', variant: 'steps', items: ['account', 'deposit', 'use'] },
  ],
  hasSignUp: true,
};

/** /usde: the USDE stablecoin. */
export function UsdePage() {
  return <ProductPage config={CONFIG} />;
}
