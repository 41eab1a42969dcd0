import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../../components/coming-soon.tsx';
import { PhoneIcon } from '../../../components/icons.tsx';
import { ProductPage, type ProductPageConfig } from '../../../components/product-page.tsx';

const CONFIG: ProductPageConfig = {
  page: 'download',
  highlights: [],
  sections: [
    { id: 'meanwhile', variant: 'cards', items: ['browser', 'notifications', 'card'], Icons: { browser: PhoneIcon } },
  ],
};

/**
 * /download: the public page behind the header's QR code. The store listings are not published
 * yet, so it says so and points to the web app, which works in a phone's browser.
 */
export function DownloadPage() {
  const { t } = useTranslation('marketing');
  return (
    <ProductPage config={CONFIG} heroActions={<span />}>
      <section className="product-section">
        <div className="container">
          <div className="product-panel" data-testid="download-stores">
            <ComingSoon feature={t('download.feature')} />
          </div>
        </div>
      </section>
    </ProductPage>
  );
}
