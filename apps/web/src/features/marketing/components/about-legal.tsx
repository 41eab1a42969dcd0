import { useTranslation } from 'react-i18next';
import { useSite } from '../../../lib/get-site.ts';
import './about-legal.css';

/**
 * The operating company and its licences on /about (issue 20), from the operator's settings
 * (`GET site`: SITE_LEGAL_ENTITY, SITE_REGISTERED_ADDRESS, SITE_LICENCES). What is not set yet shows
 * as a marked placeholder naming the setting, never an invented name or number.
 */
export function AboutLegal() {
  const { t } = useTranslation('marketing');
  const { legalEntity, registeredAddress, licences } = useSite();
  const pending = (
    <span className="legal-pending" data-testid="legal-pending">
      {t('about.legal.pending')}
    </span>
  );
  const isIncomplete = !legalEntity || !registeredAddress || licences.length === 0;

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
            <dd>{legalEntity ?? pending}</dd>
          </div>
          <div className="fact-list__row">
            <dt>{t('about.legal.address')}</dt>
            <dd>{registeredAddress ?? pending}</dd>
          </div>
          <div className="fact-list__row">
            <dt>{t('about.legal.licences')}</dt>
            <dd>
              {licences.length === 0 ? (
                pending
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
        {isIncomplete && <p className="legal-pending-note">{t('about.legal.pendingNote')}</p>}
        <p className="product-note">{t('about.legal.risk')}</p>
      </div>
    </section>
  );
}
