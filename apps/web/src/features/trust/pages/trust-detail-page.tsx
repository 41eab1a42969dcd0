import { Button, Card, Flex, Result, Skeleton } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { RequireUser } from '../../../components/require-user.tsx';
import { pathTo } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useTrust } from '../api/get-trust.ts';
import { LevelGate } from '../components/level-gate.tsx';
import { MoveModal } from '../components/move-modal.tsx';
import { TrustBeneficiaries, TrustFacts } from '../components/trust-facts.tsx';
import { TrustHistory } from '../components/trust-history.tsx';
import { TrustStateTag } from '../components/trust-state-tag.tsx';

/**
 * `/product/trust/:id`: one trust — state, holding, fees paid, terms and beneficiaries —
 * with Fund (fee and net shown before confirming) and Withdraw (revocable and active only), both
 * through the security check, and its history (entrust, withdraw, release), paged.
 */
export function TrustDetailPage() {
  return (
    <RequireUser>
      <div className="container section">
        <TrustDetail />
      </div>
    </RequireUser>
  );
}

function TrustDetail() {
  const { t } = useTranslation('trust');
  const id = Number(useParams().id);
  const [pageID, setPageID] = useState(1);
  const [modal, setModal] = useState<'fund' | 'withdraw' | null>(null);
  const query = useTrust(id, pageID);
  const trust = query.data;
  if (query.error || !trust) return <TrustUnavailable error={query.error} />;
  const isActive = trust.state === 'active';

  return (
    <PageFrame
      title={
        <span data-testid="trust-title">
          {trust.name} <TrustStateTag state={trust.state} />
        </span>
      }
      actions={
        <Flex gap={8} wrap>
          <Button type="primary" disabled={!isActive} onClick={() => setModal('fund')} data-testid="trust-fund">
            {t('detail.fund')}
          </Button>
          <Button
            disabled={!isActive || !trust.isRevocable}
            title={trust.isRevocable ? undefined : t('detail.irrevocableHint')}
            onClick={() => setModal('withdraw')}
            data-testid="trust-withdraw"
          >
            {t('detail.withdraw')}
          </Button>
        </Flex>
      }
    >
      <Flex vertical gap={16}>
        {trust.state === 'claim' && <Card size="small">{t('detail.claimNote')}</Card>}
        <TrustFacts trust={trust} />
        <TrustBeneficiaries trust={trust} />
        <TrustHistory trust={trust} pageID={pageID} onPage={setPageID} />
      </Flex>
      {modal && <MoveModal trust={trust} direction={modal} onClose={() => setModal(null)} />}
    </PageFrame>
  );
}

/**
 * The page without its trust: the level gate when the user's KYC level is too low (143), not found
 * (with a way back to the trusts) on any other error, a skeleton while loading.
 */
function TrustUnavailable({ error }: { error: Error | null }) {
  const { t } = useTranslation('trust');
  if (error instanceof ApiError && error.statusCode === 143)
    return (
      <PageFrame>
        <LevelGate error={error} />
      </PageFrame>
    );
  if (error)
    return (
      <PageFrame>
        <Result
          status="404"
          title={t('detail.notFound')}
          extra={
            <Link to={pathTo('Trust')}>
              <Button type="primary">{t('detail.back')}</Button>
            </Link>
          }
        />
      </PageFrame>
    );
  return (
    <PageFrame>
      <Skeleton active />
    </PageFrame>
  );
}
