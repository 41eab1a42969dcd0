import { CURRENT_PRODUCT_ID } from '@meridian/contracts/funds';
import { Button, Flex, Skeleton } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { RequireUser } from '../../../components/require-user.tsx';
import { pathTo } from '../../../config/paths.ts';
import { useUserId } from '../../../lib/session.ts';
import { useFundAsset } from '../api/get-fund-asset.ts';
import { useFundEarnings } from '../api/get-fund-earnings.ts';
import { useFundProducts } from '../api/get-fund-products.ts';
import { CurrentHoldingCard } from '../components/current-holding-card.tsx';
import { FixedHoldingsCard } from '../components/fixed-holdings-card.tsx';
import { FundAccessPrompt } from '../components/fund-access-prompt.tsx';
import { FundAccountStats } from '../components/fund-account-stats.tsx';
import { useFundActions } from '../components/fund-actions.tsx';
import { FundEarningsCard } from '../components/fund-earnings-card.tsx';
import { isPositive } from '../lib/format.ts';
import { fundAccessOf } from '../lib/fund-access.ts';
import './funds.css';

/**
 * /my/account/fund, FundAccount: the totals (value, yesterday's profit, unpaid and
 * paid interest), the current holding (usable and unusable shares) with Subscribe / Redeem, the fixed
 * holdings with their maturity dates, and a chart of daily earnings.
 */
export function FundAccountPage() {
  return (
    <RequireUser>
      <PageFrame>
        <FundAccount />
      </PageFrame>
    </RequireUser>
  );
}

function FundAccount() {
  const { t } = useTranslation('funds');
  const userId = useUserId();
  const asset = useFundAsset();
  const products = useFundProducts();
  const actions = useFundActions();
  const [rangeDays, setRangeDays] = useState<number>(30);
  const earnings = useFundEarnings(rangeDays);
  const access = fundAccessOf(userId !== null, asset.error);
  if (access.kind !== 'ok') return <FundAccessPrompt access={access} />;
  if (!asset.data) return <Skeleton active />;

  const current = products.data?.find((p) => p.productId === CURRENT_PRODUCT_ID);
  const fixedHeld = (products.data ?? []).filter((p) => p.type === 'FIXED' && isPositive(p.holdingShares));
  return (
    <Flex vertical gap={16} data-testid="fund-account">
      <FundAccountStats asset={asset.data} />
      <CurrentHoldingCard
        holding={asset.data.currentProduct}
        product={current}
        onSubscribe={actions.subscribe}
        onRedeem={actions.redeem}
      />
      <FixedHoldingsCard holding={asset.data.fixedProduct} held={fixedHeld} isLoading={products.isPending} />
      <FundEarningsCard rangeDays={rangeDays} onRangeChange={setRangeDays} days={earnings.data} />
      <Flex justify="end">
        <Link to={pathTo('FundHistory')}>
          <Button type="link">{t('account.history')}</Button>
        </Link>
      </Flex>
      {actions.modals}
    </Flex>
  );
}
