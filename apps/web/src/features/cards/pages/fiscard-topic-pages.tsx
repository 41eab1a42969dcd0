import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CardIcon, ExchangeIcon, GlobeIcon, TrustIcon } from '../../../components/icons.tsx';
import { ProductPage, type ProductPageConfig } from '../../../components/product-page.tsx';
import { pathTo } from '../../../config/paths.ts';
import { CardFaq } from '../components/card-faq.tsx';
import { FiscardHeroActions } from '../components/fiscard-hero-actions.tsx';
import './cards-marketing.css';

/** Texts under `fiscardPhysical` in `marketing.json`; facts as in docs/cards.md. */
const PHYSICAL: ProductPageConfig = {
  page: 'fiscardPhysical',
  highlights: ['fee', 'perUser', 'coverage'],
  sections: [
    { id: 'steps', variant: 'steps', items: ['verify', 'apply', 'ship', 'use'] },
    {
      id: 'control',
      variant: 'cards',
      items: ['lock', 'pin', 'rules'],
      Icons: { lock: TrustIcon, pin: CardIcon, rules: GlobeIcon },
    },
    { id: 'facts', variant: 'facts', items: ['networks', 'perUser', 'fee', 'statuses', 'corporate', 'limits'] },
  ],
  hasSignUp: true,
};

const VIRTUAL: ProductPageConfig = {
  page: 'fiscardVirtual',
  highlights: ['currencies', 'count', 'fee'],
  sections: [
    {
      id: 'uses',
      variant: 'cards',
      items: ['ads', 'stores', 'developers'],
      Icons: { ads: GlobeIcon, stores: CardIcon, developers: ExchangeIcon },
    },
    { id: 'steps', variant: 'steps', items: ['open', 'topUp', 'pay'] },
    { id: 'facts', variant: 'facts', items: ['currencies', 'count', 'fee', 'topUp', 'reveal', 'threeDs'] },
  ],
  hasSignUp: true,
};

const BUSINESS: ProductPageConfig = {
  page: 'fiscardBusiness',
  highlights: ['networks', 'manager', 'coverage'],
  sections: [
    {
      id: 'benefits',
      variant: 'cards',
      items: ['employees', 'preactivated', 'control', 'funding'],
      Icons: { employees: TrustIcon, preactivated: CardIcon, control: GlobeIcon, funding: ExchangeIcon },
    },
    { id: 'steps', variant: 'steps', items: ['profile', 'apply', 'review', 'issue'] },
  ],
  hasSignUp: true,
};

const API: ProductPageConfig = {
  page: 'fiscardApi',
  highlights: ['networks', 'realTime', 'signed'],
  sections: [
    {
      id: 'capabilities',
      variant: 'cards',
      items: ['issue', 'fund', 'decide', 'follow'],
      Icons: { issue: CardIcon, fund: ExchangeIcon, decide: TrustIcon, follow: GlobeIcon },
    },
    { id: 'steps', variant: 'steps', items: ['account', 'cards', 'webhooks'] },
    { id: 'facts', variant: 'facts', items: ['currencies', 'security', 'threeDs', 'access'] },
  ],
  hasSignUp: true,
};

/** A link back to the card overview, above the FAQ. */
function BackToCards() {
  const { t } = useTranslation('common');
  return (
    <div className="container card-topic__back">
      <Link to={pathTo('Fiscard')}>← {t('routes.Fiscard')}</Link>
    </div>
  );
}

/** /product/fiscard/physical: the physical card screen. */
export function FiscardPhysicalPage() {
  return (
    <ProductPage config={PHYSICAL} heroActions={<FiscardHeroActions />}>
      <CardFaq />
      <BackToCards />
    </ProductPage>
  );
}

/** /product/fiscard/virtual: the virtual card screen. */
export function FiscardVirtualPage() {
  return (
    <ProductPage config={VIRTUAL} heroActions={<FiscardHeroActions />}>
      <CardFaq />
      <BackToCards />
    </ProductPage>
  );
}

/** /product/fiscard/business: the business card landing (corporate customers and PRO accounts; docs/corporate.md). */
export function FiscardBusinessPage() {
  return (
    <ProductPage config={BUSINESS} heroActions={<FiscardHeroActions />}>
      <BackToCards />
    </ProductPage>
  );
}

/** /product/fiscard/api: the API card-issuing pitch. */
export function FiscardApiPage() {
  return (
    <ProductPage config={API} heroActions={<FiscardHeroActions />}>
      <BackToCards />
    </ProductPage>
  );
}
