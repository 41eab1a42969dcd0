import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../../components/page-frame.tsx';
import './policy-page.css';

/** Paragraph keys of each document in `legal.json`, in reading order. */
const DOCUMENTS = {
  privacy: ['scope', 'collect', 'use', 'share', 'keep', 'rights', 'security', 'changes'],
  amlKyc: ['purpose', 'verification', 'levels', 'monitoring', 'tax', 'refusal', 'changes'],
} as const;

function PolicyDocument({ id }: { id: keyof typeof DOCUMENTS }) {
  const { t } = useTranslation('legal');
  return (
    <div className="container section">
      <PageFrame title={t(`${id}.title`)} subtitle={t(`${id}.summary`)}>
        <article className="policy" data-testid={`policy-${id}`}>
          {DOCUMENTS[id].map((section) => (
            <section key={section} id={section}>
              <h2>{t(`${id}.sections.${section}.title`)}</h2>
              <p>{t(`${id}.sections.${section}.body`)}</p>
            </section>
          ))}
          <p className="policy__updated">{t('updated')}</p>
        </article>
      </PageFrame>
    </div>
  );
}

/** /legal/privacy: the privacy policy. */
export function PrivacyPolicyPage() {
  return <PolicyDocument id="privacy" />;
}

/** /legal/aml-kyc: the AML/KYC policy, opened from the footer in a new tab. */
export function AmlKycPolicyPage() {
  return <PolicyDocument id="amlKyc" />;
}
