import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { AntdIsland, antdIsland } from '../../../components/antd-island.tsx';
import { ProductPage, type ProductPageConfig } from '../../../components/product-page.tsx';
import { useUserId } from '../../../lib/session.ts';
import { openActionModal } from '../../../stores/modal-store.ts';
import './loans.css';
import loanBorrowStyles from '../../../styles/antd/loan-borrow.css?url';

/** The marketing texts of the page (hero, steps, terms) stay in `marketing.json`. */
const CONFIG: ProductPageConfig = {
  page: 'loan',
  highlights: ['ltv', 'max', 'apr'],
  sections: [
    { id: 'steps', variant: 'steps', items: ['collateral', 'term', 'receive', 'repay'] },
    { id: 'rules', variant: 'facts', items: ['ltv', 'max', 'terms', 'apr', 'interest', 'overdue', 'early'] },
  ],
  faq: ['ltv', 'liquidation', 'fees', 'early', 'who', 'risk'],
};

/**
 * The calculator and the user's loans load after the page's first paint; the contracts they use
 * (zod schemas built at load) are evaluated first, one module per task.
 */
const LoanBorrow = antdIsland(
  () => import('../components/loan-borrow.tsx').then((m) => m.LoanBorrow),
  loanBorrowStyles,
  [
    () => import('@meridian/contracts/pagination'),
    () => import('@meridian/contracts/security'),
    () => import('@meridian/contracts/money'),
    () => import('@meridian/contracts/endpoint'),
    // The loan contracts' own schemas took ~18 ms in one task as one module: each file is a step.
    () => import('@meridian/contracts/loans/base'),
    () => import('@meridian/contracts/loans/config'),
    () => import('@meridian/contracts/loans/orders'),
    () => import('@meridian/contracts/loans/repay'),
    () => import('@meridian/contracts/loans/protection'),
    () => import('@meridian/contracts/loans/endpoints'),
    () => import('@meridian/contracts/loans'),
    // The calculator's module graph was one task of ~15 ms of CPU on its own (Ant Design's form and
    // select, decimal.js): its heaviest imports are steps too.
    () => import('decimal.js'),
    () => import('antd/es/form'),
    () => import('antd/es/select'),
  ],
);

/**
 * /loan: the hero and the loan terms, the calculator (collateral ↔ amount,
 * term and APR, interest, LTV gauge, margin-call and liquidation prices) with Borrow through the
 * security check, and the user's current loans with their LTV, the BTC price chart with the
 * liquidation prices, and repay / adjust / protection. Guests see the calculator and "Log in to
 * borrow"; users below level 2 are asked to verify (the server's 143 names the step). The
 * calculator and the loans are an Ant Design island (`LoanBorrow`); the rest is plain React.
 */
export function LoanPage() {
  const { t } = useTranslation('loans');
  const { t: tm } = useTranslation('marketing');
  const location = useLocation();
  const userId = useUserId();
  const returnTo = `${location.pathname}${location.search}${location.hash}`;

  return (
    <ProductPage
      config={CONFIG}
      heroActions={
        userId ? (
          <a href="#borrow" className="btn btn--primary btn--lg">
            {tm('loan.borrow')}
          </a>
        ) : (
          <button
            type="button"
            className="btn btn--primary btn--lg guest-only"
            onClick={() => openActionModal('login', { returnTo })}
            data-testid="loan-login"
          >
            {tm('loan.loginToBorrow')}
          </button>
        )
      }
      intro={
        <section id="borrow" className="product-section loan-section">
          <div className="container">
            <div className="section-head">
              <h2>{t('calc.title')}</h2>
              <p>{t('calc.subtitle')}</p>
            </div>
            <AntdIsland minHeight="var(--loan-borrow-height)" testId="loan-borrow-loading">
              <LoanBorrow />
            </AntdIsland>
          </div>
        </section>
      }
    />
  );
}
