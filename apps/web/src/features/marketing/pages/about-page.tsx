import {
  CardIcon,
  EarnIcon,
  ExchangeIcon,
  LoanIcon,
  StablecoinIcon,
  TrustIcon,
  UserIcon,
} from '../../../components/icons.tsx';
import { ProductPage, type ProductPageConfig } from '../../../components/product-page.tsx';
import { AboutLegal } from '../components/about-legal.tsx';

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
    {
      id: 'who',
      variant: 'cards',
      items: ['individuals', 'investors', 'companies', 'notFor'],
      Icons: { individuals: UserIcon, investors: EarnIcon, companies: CardIcon, notFor: TrustIcon },
    },
    { id: 'principles', variant: 'cards', items: ['custody', 'verification', 'notice', 'languages'] },
    { id: 'commitments', variant: 'facts', items: ['kyc', 'tax', 'changes', 'wires'] },
  ],
  hasSignUp: true,
};

/**
 * /about: what Meridian is and offers, who it is for, how it works, its service commitments, and
 * the operating company with its licences (from the operator's settings; marked while unset).
 */
export function AboutPage() {
  return (
    <ProductPage config={CONFIG}>
      <AboutLegal />
    </ProductPage>
  );
}
