import { Alert, Flex, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { TrustIcon, UserIcon, EarnIcon } from '../../../components/icons.tsx';
import { ProductPage, type ProductPageConfig } from '../../../components/product-page.tsx';
import { pathTo } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';
import { useTrusts } from '../api/get-trusts.ts';
import { CreateTrustForm } from '../components/create-trust-form.tsx';
import { LevelGate } from '../components/level-gate.tsx';
import { TrustList } from '../components/trust-list.tsx';

/** The marketing content of the trust (texts in the `marketing` namespace). */
const CONFIG: ProductPageConfig = {
  page: 'trust',
  highlights: ['asset', 'fee'],
  sections: [
    {
      id: 'why',
      variant: 'cards',
      items: ['custody', 'dedicated', 'transparent'],
      Icons: { custody: TrustIcon, dedicated: UserIcon, transparent: EarnIcon },
    },
    { id: 'steps', variant: 'steps', items: ['verify', 'entrust', 'follow'] },
    { id: 'facts', variant: 'facts', items: ['asset', 'fee', 'eligibility'] },
  ],
  faq: ['what', 'fee', 'who', 'withdraw', 'inactivity', 'risk'],
  hasSignUp: true,
};

/**
 * `/product/trust` (spec §2; issue 17): for guests the product page (hero with the 2 % fee,
 * sections, sign-up); for a signed-in user the same hero, then the product — how the fee works,
 * their trusts and the create form — or, below level 2, the verification prompt.
 */
export function TrustPage() {
  const userId = useUserId();
  if (!userId) return <ProductPage config={CONFIG} />;
  return (
    <ProductPage config={{ ...CONFIG, sections: [], hasSignUp: false }}>
      <section className="product-section" data-testid="trust-product">
        <div className="container">
          <TrustProduct />
        </div>
      </section>
    </ProductPage>
  );
}

function TrustProduct() {
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
