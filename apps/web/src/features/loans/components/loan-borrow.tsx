import { Alert, Button, Skeleton } from 'antd';
import { lazy, Suspense, useDeferredValue } from 'react';
import { useTranslation } from 'react-i18next';
import { useUserId } from '../../../lib/session.ts';
import { useLoanAsset } from '../api/get-loan-asset.ts';
import { useLoanCoins } from '../api/get-loan-coins.ts';
import { useLoanConfig } from '../api/get-loan-config.ts';
import { loanAccessOf } from '../lib/loan-access.ts';
import { LoanCalculator } from './loan-calculator.tsx';

/**
 * The user's loans, with their modals and chart: loaded only for a signed-in user who may borrow, so
 * that a guest's page evaluates the calculator alone (Lighthouse's total blocking time).
 */
const MyLoans = lazy(() => import('./my-loans.tsx').then((m) => ({ default: m.MyLoans })));

/**
 * The product part of /loan, loaded as an Ant Design island after the page's first
 * paint: the calculator (collateral ↔ amount, term and APR, interest, LTV gauge,
 * margin-call and liquidation prices) with Borrow through the security check, and the user's
 * current loans with their LTV, the BTC price chart and repay / adjust / protection. Guests see the
 * calculator and "Log in to borrow"; users below level 2 are asked to verify (143 names the step).
 */
export function LoanBorrow() {
  const { t } = useTranslation('loans');
  const userId = useUserId();
  const config = useLoanConfig();
  const asset = useLoanAsset();
  // The calculator's coins load with the configuration, so that it mounts once with both rather than
  // render again when they arrive (without them it offers every loan coin).
  const coins = useLoanCoins();
  const access = loanAccessOf(userId !== null, asset.error);
  // The calculator is a large Ant Design tree, and a query's update is synchronous: mounting it from
  // the deferred flag makes that render a transition, done in slices that leave the main thread free
  // between them (Lighthouse's total blocking time). The skeleton stays meanwhile.
  const isCalculatorDue = useDeferredValue(config.isSuccess && !coins.isPending);

  if (config.isPending || (config.isSuccess && !isCalculatorDue)) return <Skeleton active />;
  if (config.isError) {
    return (
      <Alert
        type="error"
        showIcon
        message={config.error.message}
        action={<Button onClick={() => void config.refetch()}>{t('actions.retry')}</Button>}
      />
    );
  }
  return (
    <>
      <LoanCalculator config={config.data} access={access} />
      {access.kind === 'ok' && userId && (
        <div style={{ marginTop: 32 }}>
          <Suspense fallback={<Skeleton active />}>
            <MyLoans config={config.data} />
          </Suspense>
        </div>
      )}
    </>
  );
}
