import { CardIcon, ExchangeIcon, GlobeIcon, TrustIcon } from '../../../components/icons.tsx';
import { ProductPage, type ProductPageConfig } from '../../../components/product-page.tsx';

const CONFIG: ProductPageConfig = {
  page: 'fiscard',
  highlights: ['networks', 'coverage', 'fee'],
  sections: [
    {
      id: 'cards',
      variant: 'cards',
      items: ['physical', 'virtual', 'business'],
      Icons: { physical: CardIcon, virtual: GlobeIcon, business: TrustIcon },
    },
    {
      id: 'why',
      variant: 'cards',
      items: ['topUp', 'rateLock', 'control', 'coverage'],
      Icons: { topUp: ExchangeIcon, rateLock: TrustIcon, control: CardIcon, coverage: GlobeIcon },
    },
    {
      id: 'facts',
      variant: 'facts',
      items: ['networks', 'perUser', 'fee', 'topUp', 'virtualCurrencies', 'virtualCount', 'eure', 'limits'],
    },
  ],
  hasSignUp: true,
};

/** /product/fiscard: the Meridian card (shown as "Card" in the menu). */
export function FiscardPage() {
  return <ProductPage config={CONFIG} />;
}
