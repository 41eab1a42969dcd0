import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../../components/coming-soon.tsx';
import { ProductPage, type ProductPageConfig } from '../../../components/product-page.tsx';
import { useUserId } from '../../../lib/session.ts';
import { openActionModal } from '../../../stores/modal-store.ts';

const CONFIG: ProductPageConfig = {
  page: 'loan',
  highlights: ['ltv', 'max', 'apr'],
  sections: [
    { id: 'steps', variant: 'steps', items: ['collateral', 'term', 'receive', 'repay'] },
    { id: 'rules', variant: 'facts', items: ['ltv', 'max', 'terms', 'apr', 'interest', 'overdue', 'early'] },
  ],
};

/**
 * /loan: what a Meridian loan is, from the spec's constants; the borrowing form arrives with the
 * loans issue and is shown as available soon.
 */
export function LoanPage() {
  const { t } = useTranslation('marketing');
  const userId = useUserId();
  return (
    <ProductPage
      config={CONFIG}
      heroActions={
        userId ? (
          <a href="#borrow" className="btn btn--primary btn--lg">
            {t('loan.borrow')}
          </a>
        ) : (
          <button
            type="button"
            className="btn btn--primary btn--lg"
            onClick={() => openActionModal('login')}
            data-testid="loan-login"
          >
            {t('loan.loginToBorrow')}
          </button>
        )
      }
    >
      <section id="borrow" className="product-section">
        <div className="container">
          <div className="product-panel">
            <ComingSoon feature={t('loan.feature')} extra={null} />
          </div>
        </div>
      </section>
    </ProductPage>
  );
}
