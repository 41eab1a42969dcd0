import { Collapse } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The questions and answers of a product page (spec §2 "FAQ screens"): texts under
 * `<page>.faq.title` and `<page>.faq.items.<id>.q` / `.a` in `marketing.json`, in the order of
 * `items`; the first answer starts open.
 */
export function ProductFaq({ page, items }: { page: string; items: readonly string[] }) {
  const { t } = useTranslation('marketing');
  return (
    <section id="faq" className="product-section" data-testid={`faq-${page}`}>
      <div className="container">
        <div className="section-head">
          <h2>{t(`${page}.faq.title`)}</h2>
        </div>
        <Collapse
          defaultActiveKey={items.slice(0, 1)}
          items={items.map((id) => ({
            key: id,
            label: <strong>{t(`${page}.faq.items.${id}.q`)}</strong>,
            children: <p className="product-faq__answer">{t(`${page}.faq.items.${id}.a`)}</p>,
          }))}
        />
      </div>
    </section>
  );
}
