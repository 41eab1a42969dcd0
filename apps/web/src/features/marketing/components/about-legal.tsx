import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSite } from '../../../lib/get-site.ts';
import './about-legal.css';

/**
 * The operating company and its licences on /about (docs/marketing.md), from the operator's settings
 * (`GET site`). Production refuses to start without them. Outside production a detail that is not
 * configured shows an example value marked "Demo", with a note that the site is a demonstration: a
 * public page never names a server setting and never shows an unmarked invented name or number.
 */
export function AboutLegal() {
  const { t } = useTranslation('marketing');
  const { legalEntity, registeredAddress, licences, legalDetailsAreDemo } = useSite();
  const demo = (value: string): ReactNode => (
    <span className="legal-demo" data-testid="legal-demo">
      {value}
      <span className="legal-demo__tag">{t('about.legal.demoTag')}</span>
    </span>
  );
  const missing = (demoValue: string): ReactNode =>
    legalDetailsAreDemo ? demo(demoValue) : t('about.legal.notPublished');

  return (
    <section id="legal" className="product-section" data-testid="about-legal">
      <div className="container">
        <div className="section-head">
          <h2>{t('about.legal.title')}</h2>
          <p>{t('about.legal.subtitle')}</p>
        </div>
        <dl className="fact-list">
          <div className="fact-list__row">
            <dt>{t('about.legal.entity')}</dt>
            <dd>{legalEntity ?? missing(t('about.legal.demoEntity'))}</dd>
          </div>
          <div className="fact-list__row">
            <dt>{t('about.legal.address')}</dt>
            <dd>{registeredAddress ?? missing(t('about.legal.demoAddress'))}</dd>
          </div>
          <div className="fact-list__row">
            <dt>{t('about.legal.licences')}</dt>
            <dd>
              {licences.length === 0 ? (
                missing(`${t('about.legal.demoAuthority')} — ${t('about.legal.demoLicence')}`)
              ) : (
                <ul className="legal-licences" data-testid="legal-licences">
                  {licences.map((licence) => (
                    <li key={`${licence.authority}|${licence.licence}|${licence.number}`}>
                      <strong>{licence.authority}</strong> — {licence.licence}
                      {licence.number && <> ({t('about.legal.number', { number: licence.number })})</>}
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </div>
        </dl>
        {legalDetailsAreDemo && (
          <p className="legal-demo-note" data-testid="legal-demo-note">
            {t('about.legal.demoNote')}
          </p>
        )}
        <p className="product-note">{t('about.legal.risk')}</p>
      </div>
    </section>
  );
}
