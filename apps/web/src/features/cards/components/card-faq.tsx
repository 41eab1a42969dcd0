import { useTranslation } from 'react-i18next';
import { FaqList } from '../../../components/faq-list.tsx';

/** The questions of the card FAQ, in order; texts under `fiscard.faq.items.<id>` in `marketing.json`. */
const FAQ_ITEMS = [
  'declined',
  'refund',
  'threeDs',
  'howMany',
  'fees',
  'currencies',
  'eligibility',
  'lock',
  'limits',
  'security',
] as const;

/**
 * The card FAQ: the declined-payment reasons, the refund timing
 * (72 hours, or 31 days), 3-D Secure's 5 minutes, the card counts and fees.
 * The first two answers start open. Plain disclosure widgets (`FaqList`), no Ant Design.
 */
export function CardFaq() {
  const { t } = useTranslation('marketing');
  return (
    <section id="faq" className="product-section" data-testid="fiscard-faq">
      <div className="container">
        <div className="section-head">
          <h2>{t('fiscard.faq.title')}</h2>
        </div>
        <FaqList
          openIds={['declined', 'refund']}
          answerClassName="card-faq__answer"
          items={FAQ_ITEMS.map((id) => ({
            id,
            question: t(`fiscard.faq.items.${id}.q`),
            answer: t(`fiscard.faq.items.${id}.a`),
          }))}
        />
      </div>
    </section>
  );
}
