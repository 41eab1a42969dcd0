import { Alert, Flex, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { pathTo } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useTrusts } from '../api/get-trusts.ts';
import { CreateTrustForm } from './create-trust-form.tsx';
import { LevelGate } from './level-gate.tsx';
import { TrustList } from './trust-list.tsx';

/**
 * The product part of `/product/trust` for a signed-in user, loaded as an Ant Design
 * island after the page's first paint: how the 2 % fee works, their trusts and the
 * create form — or, below level 2 (143), the verification prompt.
 */
export function TrustProduct() {
  const { t } = useTranslation('trust');
  const navigate = useNavigate();
  const trusts = useTrusts();
  if (trusts.error instanceof ApiError && trusts.error.statusCode === 143) return <LevelGate error={trusts.error} />;
  if (!trusts.data) return <Skeleton active />;
  return (
    <Flex vertical gap={24}>
      <Alert
        type="info"
        showIcon
        message={t('fee.title')}
        description={t('fee.body')}
        data-testid="trust-fee-explained"
      />
      <TrustList trusts={trusts.data} />
      <CreateTrustForm onCreated={(trust) => void navigate(pathTo('TrustDetail', { id: String(trust.id) }))} />
    </Flex>
  );
}
