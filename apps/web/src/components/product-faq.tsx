import { useTranslation } from 'react-i18next';
import { FaqList } from './faq-list.tsx';

/**
 * The questions and answers of a product page: texts under
 * `<page>.faq.title` and `<page>.faq.items.<id>.q` / `.a` in `marketing.json`, in the order of
 * `items`; the first answer starts open. Plain disclosure widgets (`FaqList`), no Ant Design.
 */
export function ProductFaq({ page, items }: { page: string; items: readonly string[] }) {
  const { t } = useTranslation('marketing');
  return (
    <section id="faq" className="product-section" data-testid={`faq-${page}`}>
      <div className="container">
        <div className="section-head">
          <h2>{t(`${page}.faq.title`)}</h2>
        </div>
        <FaqList
          openIds={items.slice(0, 1)}
          answerClassName="product-faq__answer"
          items={items.map((id) => ({
            id,
            question: t(`${page}.faq.items.${id}.q`),
            answer: t(`${page}.faq.items.${id}.a`),
          }))}
        />
      </div>
    </section>
  );
}
