import { CardIcon, EarnIcon, ExchangeIcon, LoanIcon, StablecoinIcon, TrustIcon } from '../../../components/icons.tsx';
import { ProductPage, type ProductPageConfig } from '../../../components/product-page.tsx';

const CONFIG: ProductPageConfig = {
  page: 'about',
  highlights: [],
  sections: [
    {
      id: 'offer',
      variant: 'cards',
      items: ['wallet', 'earn', 'trust', 'loan', 'card', 'usde'],
      Icons: {
        wallet: ExchangeIcon,
        earn: EarnIcon,
        trust: TrustIcon,
        loan: LoanIcon,
        card: CardIcon,
        usde: StablecoinIcon,
      },
    },
    { id: 'principles', variant: 'cards', items: ['custody', 'verification', 'notice', 'languages'] },
    { id: 'commitments', variant: 'facts', items: ['kyc', 'tax', 'changes', 'wires'] },
  ],
  hasSignUp: true,
};

/** /about: the company and how it works. */
export function AboutPage() {
  return <ProductPage config={CONFIG} />;
}
