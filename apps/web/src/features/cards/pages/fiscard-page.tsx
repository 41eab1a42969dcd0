import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CardIcon, ExchangeIcon, GlobeIcon, TrustIcon } from '../../../components/icons.tsx';
import { ProductPage, type ProductPageConfig } from '../../../components/product-page.tsx';
import { pathTo, type RouteName } from '../../../config/paths.ts';
import { CardFaq } from '../components/card-faq.tsx';
import { FiscardHeroActions } from '../components/fiscard-hero-actions.tsx';
import './cards-marketing.css';

const CONFIG: ProductPageConfig = {
  page: 'fiscard',
  highlights: ['networks', 'coverage', 'fee'],
  sections: [
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

/** The four card screens, each a page of its own. */
const CARD_TYPES: { id: string; route: RouteName; Icon: typeof CardIcon }[] = [
  { id: 'physical', route: 'FiscardPhysical', Icon: CardIcon },
  { id: 'virtual', route: 'FiscardVirtual', Icon: GlobeIcon },
  { id: 'business', route: 'FiscardBusiness', Icon: TrustIcon },
  { id: 'api', route: 'FiscardApi', Icon: ExchangeIcon },
];

function CardTypes() {
  const { t } = useTranslation('marketing');
  return (
    <section id="cards" className="product-section">
      <div className="container">
        <div className="section-head">
          <h2>{t('fiscard.sections.types.title')}</h2>
          <p>{t('fiscard.sections.types.subtitle')}</p>
        </div>
        <ol className="feature-grid feature-grid--cards">
          {CARD_TYPES.map(({ id, route, Icon }) => (
            <li key={id} className="feature-card card-type" data-testid={`fiscard-type-${id}`}>
              <span className="feature-card__icon">
                <Icon size={24} />
              </span>
              <h3>{t(`fiscard.sections.types.items.${id}.title`)}</h3>
              <p>{t(`fiscard.sections.types.items.${id}.body`)}</p>
              <Link to={pathTo(route as 'FiscardPhysical')} className="card-type__link">
                {t('fiscard.cta.learnMore')} →
              </Link>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

/**
 * /product/fiscard: the Meridian card (shown as "Card" in the menu): the four card screens
 * (physical, virtual, business, card-issuing API), why and the facts (docs/cards-web.md), and the FAQ with
 * the declined-payment reasons and the refund timing.
 */
export function FiscardPage() {
  return (
    <ProductPage config={CONFIG} heroActions={<FiscardHeroActions />} intro={<CardTypes />}>
      <CardFaq />
    </ProductPage>
  );
}
