import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ArrowRightIcon } from './icons.tsx';
import { ProductFaq } from './product-faq.tsx';
import { pathTo } from '../config/paths.ts';
import { useUserId } from '../lib/session.ts';
import { openActionModal } from '../stores/modal-store.ts';
import './product-page.css';

/** One block of a product page; its texts live under `<page>.sections.<id>` in `marketing.json`. */
export interface ProductSection {
  id: string;
  variant: 'cards' | 'steps' | 'facts';
  items: readonly string[];
  Icons?: Partial<Record<string, ComponentType<{ size?: number }>>>;
}

export interface ProductPageConfig {
  /** Key of the page in `marketing.json`. */
  page: string;
  /** Highlight figures of the hero; `<page>.highlights.<id>.value` and `.label`. Spec facts only. */
  highlights: readonly string[];
  sections: readonly ProductSection[];
  /** Questions of the page's FAQ (`<page>.faq.items.<id>`), shown after the sections; none: no FAQ. */
  faq?: readonly string[];
  /** Show the closing sign-up band. */
  hasSignUp?: boolean;
}

function SectionItems({ page, section }: { page: string; section: ProductSection }) {
  const { t } = useTranslation('marketing');
  const base = `${page}.sections.${section.id}.items`;
  if (section.variant === 'facts') {
    return (
      <dl className="fact-list">
        {section.items.map((item) => (
          <div key={item} className="fact-list__row">
            <dt>{t(`${base}.${item}.title`)}</dt>
            <dd>{t(`${base}.${item}.body`)}</dd>
          </div>
        ))}
      </dl>
    );
  }
  return (
    <ol className={`feature-grid feature-grid--${section.variant}`}>
      {section.items.map((item, index) => {
        const Icon = section.Icons?.[item];
        return (
          <li key={item} className="feature-card">
            {section.variant === 'steps' ? (
              <span className="feature-card__step">{index + 1}</span>
            ) : (
              Icon && (
                <span className="feature-card__icon">
                  <Icon size={24} />
                </span>
              )
            )}
            <h3>{t(`${base}.${item}.title`)}</h3>
            <p>{t(`${base}.${item}.body`)}</p>
          </li>
        );
      })}
    </ol>
  );
}

/**
 * A product or company page built from its texts: hero with highlight figures, then sections of
 * cards, numbered steps or facts, then an optional sign-up band. `intro` goes between the hero and
 * the sections (a product list), `children` after the sections.
 */
export function ProductPage({
  config,
  heroActions,
  intro,
  children,
}: {
  config: ProductPageConfig;
  heroActions?: ReactNode;
  intro?: ReactNode;
  children?: ReactNode;
}) {
  const { t } = useTranslation('marketing');
  const userId = useUserId();
  const { page } = config;
  const note = t(`${page}.note`, { defaultValue: '' });

  return (
    <div className="product-page" data-testid={`product-page-${page}`}>
      <section className="product-hero">
        <div
          className={`container product-hero__inner${config.highlights.length === 0 ? ' product-hero__inner--single' : ''}`}
        >
          <div className="product-hero__copy">
            <p className="eyebrow">{t(`${page}.hero.eyebrow`)}</p>
            <h1 data-testid="page-title">{t(`${page}.hero.title`)}</h1>
            <p className="product-hero__lead">{t(`${page}.hero.lead`)}</p>
            <div className="product-hero__actions">
              {heroActions ??
                (userId ? (
                  <Link to={pathTo('AccountOverview')} className="btn btn--primary btn--lg">
                    {t('common.myAccount')}
                  </Link>
                ) : (
                  <button
                    type="button"
                    className="btn btn--primary btn--lg guest-only"
                    onClick={() => openActionModal('register')}
                  >
                    {t('common.getStarted')}
                  </button>
                ))}
            </div>
          </div>
          {config.highlights.length > 0 && (
            <ul className="product-hero__highlights" data-testid="product-highlights">
              {config.highlights.map((id) => (
                <li key={id}>
                  <strong>{t(`${page}.highlights.${id}.value`)}</strong>
                  <span>{t(`${page}.highlights.${id}.label`)}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>

      {intro}

      {config.sections.map((section) => (
        <section key={section.id} id={section.id} className="product-section">
          <div className="container">
            <div className="section-head">
              <h2>{t(`${page}.sections.${section.id}.title`)}</h2>
              {t(`${page}.sections.${section.id}.subtitle`, { defaultValue: '' }) && (
                <p>{t(`${page}.sections.${section.id}.subtitle`)}</p>
              )}
            </div>
            <SectionItems page={page} section={section} />
          </div>
        </section>
      ))}

      {children}

      {config.faq && config.faq.length > 0 && <ProductFaq page={page} items={config.faq} />}

      {note && (
        <div className="container">
          <p className="product-note">{note}</p>
        </div>
      )}

      {config.hasSignUp && !userId && (
        <section className="product-section product-signup">
          <div className="container">
            <div className="product-signup__inner">
              <div>
                <h2>{t('common.signUpTitle')}</h2>
                <p>{t('common.signUpBody')}</p>
              </div>
              <button
                type="button"
                className="btn btn--primary btn--lg guest-only"
                onClick={() => openActionModal('register')}
              >
                {t('common.getStarted')} <ArrowRightIcon size={18} />
              </button>
            </div>
          </div>
        </section>
      )}
    </div>
  );
}
