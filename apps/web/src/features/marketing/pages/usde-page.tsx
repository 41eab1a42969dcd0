import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CardIcon, EarnIcon, ExchangeIcon, StablecoinIcon, TrustIcon } from '../../../components/icons.tsx';
import { ProductPage, type ProductPageConfig } from '../../../components/product-page.tsx';
import { pathTo } from '../../../config/paths.ts';

const CONFIG: ProductPageConfig = {
  page: 'usde',
  highlights: ['peg', 'reserves', 'pair'],
  sections: [
    {
      id: 'backing',
      variant: 'cards',
      items: ['oneToOne', 'reserves', 'proof', 'band'],
      Icons: { oneToOne: StablecoinIcon, reserves: TrustIcon, proof: EarnIcon, band: ExchangeIcon },
    },
    {
      id: 'uses',
      variant: 'cards',
      items: ['hold', 'swap', 'spend', 'earn'],
      Icons: { hold: StablecoinIcon, swap: ExchangeIcon, spend: CardIcon, earn: EarnIcon },
    },
    { id: 'steps', variant: 'steps', items: ['account', 'deposit', 'swap', 'use'] },
  ],
  faq: ['peg', 'reserves', 'fees', 'who', 'risk'],
  hasSignUp: true,
};

/** /usde: the USDE stablecoin — 1:1 with the dollar, its reserves, what it does, how to get it, FAQ. */
export function UsdePage() {
  const { t } = useTranslation('marketing');
  return (
    <ProductPage config={CONFIG}>
      <div className="container">
        <p className="usde-proof-link">
          <Link to={pathTo('ProofOfLiabilities')} className="text-link" data-testid="usde-proof-link">
            {t('usde.proofLink')}
          </Link>
        </p>
      </div>
    </ProductPage>
  );
}
