import { Alert, Button, Empty, Flex, Skeleton } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { RequireUser } from '../../../components/require-user.tsx';
import { pathTo } from '../../../config/paths.ts';
import { useSelf } from '../../../lib/get-self.ts';
import { useCardConfig } from '../api/get-card-config.ts';
import { useCards } from '../api/get-cards.ts';
import { useProAccount } from '../api/get-pro-account.ts';
import { CardPanel } from '../components/card-panel.tsx';
import { ConfirmationBanner } from '../components/confirmation-banner.tsx';
import '../components/cards.css';

/** The apply and bind forms load when first opened (the route's budget). */
const ApplyModal = lazy(() => import('../components/apply-modal.tsx').then((m) => ({ default: m.ApplyModal })));
/** The PRO section (application, employee cards) loads with its forms, after the cards. */
const ProSection = lazy(() => import('../components/pro-section.tsx').then((m) => ({ default: m.ProSection })));
const BindModal = lazy(() => import('../components/bind-modal.tsx').then((m) => ({ default: m.BindModal })));

/**
 * /my/account/fiscard, FiscardAccount (built inside the product instead
 * of an external card site): payments waiting for confirmation (3-D Secure, "ask me above X"), the
 * cards as card faces, the chosen card's panel (top-up, lock, reveal, PIN, rules, limits,
 * transactions), and Apply / Bind. Cards need basic verification (level 1): a user below it
 * is told to verify. Below the cards, the PRO section: the corporate account's
 * application, its state, and once approved the employee cards. `?apply=1` opens the apply form; `?confirm=<id>` (the push's link) marks that payment.
 */
export function FiscardAccountPage() {
  return (
    <RequireUser>
      <FiscardAccount />
    </RequireUser>
  );
}

function FiscardAccount() {
  const { t } = useTranslation('cards');
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const self = useSelf();
  const cards = useCards();
  const config = useCardConfig();
  const pro = useProAccount();
  const [chosenId, setChosenId] = useState<number | null>(null);
  const [isBindOpen, setBindOpen] = useState(false);
  // The level the server's gate reads (docs/decisions/0011-verification-level.md).
  const isLevelOne = (self.data?.kycLevel ?? 0) >= 1;
  const isApplyOpen = params.get('apply') === '1' && isLevelOne && config.data !== undefined;
  const focusText = params.get('confirm');
  const focusId = focusText && /^\d+$/.test(focusText) ? Number(focusText) : null;
  const list = cards.data ?? [];
  const chosen = list.find((card) => card.id === chosenId) ?? list[0] ?? null;
  const basic = self.data?.identity.basic;
  const defaultName = basic ? `${basic.firstName} ${basic.lastName}`.replace(/[^A-Za-z .'-]/g, '').trim() : '';

  const setApplyOpen = (isOpen: boolean) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (isOpen) next.set('apply', '1');
        else next.delete('apply');
        return next;
      },
      { replace: true },
    );

  const actions = isLevelOne && (
    <Flex gap={8} wrap>
      <Button type="primary" onClick={() => setApplyOpen(true)} disabled={!config.data} data-testid="card-apply">
        {t('actions.apply')}
      </Button>
      <Button onClick={() => setBindOpen(true)} data-testid="card-bind">
        {t('actions.bind')}
      </Button>
    </Flex>
  );

  return (
    <PageFrame actions={actions}>
      <Flex vertical gap={16} data-testid="card-account">
        {self.data && !isLevelOne && (
          <Alert
            type="warning"
            showIcon
            data-testid="card-kyc-required"
            message={t('gate.title')}
            description={t('gate.body')}
            action={
              <Link to={`${pathTo('IdentityBasic')}?returnTo=${encodeURIComponent(location.pathname)}`}>
                <Button type="primary" size="small" data-testid="card-kyc-verify">
                  {t('gate.action')}
                </Button>
              </Link>
            }
          />
        )}
        <ConfirmationBanner focusId={focusId} />
        {cards.isPending ? (
          <Skeleton active />
        ) : list.length === 0 ? (
          <Empty description={t('list.empty')} data-testid="card-empty">
            {isLevelOne && (
              <Button type="primary" onClick={() => setApplyOpen(true)} disabled={!config.data}>
                {t('actions.apply')}
              </Button>
            )}
            <div style={{ marginTop: 12 }}>
              <Link to={pathTo('Fiscard')}>{t('list.learnMore')}</Link>
            </div>
          </Empty>
        ) : (
          chosen &&
          config.data && (
            <CardPanel key={chosen.id} cards={list} card={chosen} config={config.data} onChoose={setChosenId} />
          )
        )}
        {isLevelOne && pro.data && config.data && (
          <Suspense fallback={<Skeleton active />}>
            <ProSection pro={pro.data} cards={list} config={config.data} />
          </Suspense>
        )}
      </Flex>
      <Suspense fallback={null}>
        {isApplyOpen && config.data && (
          <ApplyModal config={config.data} defaultName={defaultName} onClose={() => setApplyOpen(false)} />
        )}
        {isBindOpen && <BindModal onClose={() => setBindOpen(false)} />}
      </Suspense>
    </PageFrame>
  );
}
