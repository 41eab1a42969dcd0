import {
  CARD_REVEAL_TTL_MS,
  type Card,
  type CardConfig,
  type CardReveal,
  cardEndpoints,
} from '@meridian/contracts/cards';
import { Alert, Button, Card as Panel, Descriptions, Flex, Switch, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSecuredAction } from '../../../hooks/use-secured-action.ts';
import { useCard } from '../api/get-card.ts';
import { useSetCardLock } from '../api/set-card-lock.ts';
import { useNow } from '../hooks/use-now.ts';
import { isUsable, money, secondsLeft } from '../lib/card-format.ts';
import { CardFace } from './card-face.tsx';
import { CardTransactions } from './card-transactions.tsx';

/**
 * The modals load when first opened (the page-weight budgets of docs/performance.md: the page's route stays within 505
 * KB).
 */
const TopUpModal = lazy(() => import('./top-up-modal.tsx').then((m) => ({ default: m.TopUpModal })));
const PinModal = lazy(() => import('./pin-modal.tsx').then((m) => ({ default: m.PinModal })));
const RulesModal = lazy(() => import('./rules-modal.tsx').then((m) => ({ default: m.RulesModal })));
const LimitRequestModal = lazy(() =>
  import('./limit-request-modal.tsx').then((m) => ({ default: m.LimitRequestModal })),
);

type OpenModal = 'topUp' | 'pin' | 'rules' | 'limits' | null;

/**
 * The revealed details while they may show: hidden at the server's `hideAt` or after 60 s from the
 * answer, whichever is first (the reveal closes after 60 s).
 */
function useReveal() {
  const [reveal, setReveal] = useState<{ details: CardReveal; hideAtMs: number } | null>(null);
  const nowMs = useNow(500, reveal !== null);
  const left = reveal ? Math.max(0, Math.ceil((reveal.hideAtMs - nowMs) / 1000)) : 0;
  useEffect(() => {
    if (reveal && left === 0) setReveal(null);
  }, [reveal, left]);
  const show = (details: CardReveal) =>
    setReveal({ details, hideAtMs: Math.min(Date.parse(details.hideAt), Date.now() + CARD_REVEAL_TTL_MS) });
  return { details: reveal?.details ?? null, secondsLeft: left, show, hide: () => setReveal(null) };
}

/**
 * The chosen card (FiscardAccount; docs/cards-web.md): its face (the number masked, or revealed for 60 s
 * after the security check), balance and held amount, status, Top up, the lock switch (at once),
 * PIN set/change, spend rules, a limit-change request, and its transactions.
 */
export function CardPanel({
  cards,
  card,
  config,
  onChoose,
}: {
  cards: Card[];
  card: Card;
  config: CardConfig;
  onChoose: (id: number) => void;
}) {
  const { t } = useTranslation('cards');
  const detail = useCard(card.id);
  const lock = useSetCardLock();
  const reveal = useReveal();
  const [modal, setModal] = useState<OpenModal>(null);
  const [pageID, setPageID] = useState(1);
  const usable = isUsable(card);
  const nowMs = useNow(30_000, card.pinBlockedUntil !== null);
  const isPinBlocked = card.pinBlockedUntil !== null && secondsLeft(card.pinBlockedUntil, nowMs) > 0;

  const revealCall = useSecuredAction({
    endpoint: cardEndpoints.revealCard,
    quietSuccess: true,
    onSuccess: reveal.show,
  });
  const openReveal = () => revealCall.run({ params: { id: card.id }, body: {} });

  return (
    <Flex vertical gap={16} data-testid="card-panel" data-card-id={card.id}>
      <div className="card-faces" data-testid="card-list">
        {cards.map((item) => (
          <div key={item.id}>
            <CardFace
              card={item}
              reveal={item.id === card.id ? reveal.details : null}
              isSelected={item.id === card.id}
              onSelect={() => {
                if (item.id !== card.id) reveal.hide();
                onChoose(item.id);
              }}
            />
            {item.id === card.id && reveal.details && (
              <Flex justify="space-between" align="center" style={{ marginTop: 8, maxWidth: 380 }}>
                <Typography.Text type="secondary" data-testid="card-reveal-countdown">
                  {t('reveal.hidesIn', { count: reveal.secondsLeft })}
                </Typography.Text>
                <Button size="small" onClick={reveal.hide} data-testid="card-reveal-hide">
                  {t('reveal.hide')}
                </Button>
              </Flex>
            )}
          </div>
        ))}
      </div>
      <Panel title={`${t(`kind.${card.kind}`)} •••• ${card.last4}`}>
        <Flex gap={24} wrap align="flex-start">
          <Flex vertical gap={12} style={{ flex: '1 1 280px', minWidth: 0 }}>
            <Descriptions
              size="small"
              column={1}
              items={[
                {
                  key: 'balance',
                  label: t('panel.balance'),
                  children: <strong data-testid="card-balance">{money(card.balance, card.currency)}</strong>,
                },
                {
                  key: 'held',
                  label: t('panel.held'),
                  children: <span data-testid="card-held">{money(card.held, card.currency)}</span>,
                },
                {
                  key: 'status',
                  label: t('panel.status'),
                  children: (
                    <Flex gap={4} wrap>
                      <Tag color={card.status === 'ACTIVE' ? 'success' : 'default'} data-testid="card-status">
                        {t(`status.${card.status}`)}
                      </Tag>
                      {card.isLocked && <Tag color="error">{t('face.locked')}</Tag>}
                    </Flex>
                  ),
                },
                {
                  key: 'network',
                  label: t('panel.network'),
                  children: `${t(`network.${card.network}`)} · ${t(`kind.${card.kind}`)}`,
                },
              ]}
            />
            {isPinBlocked && card.pinBlockedUntil && (
              <Alert
                type="error"
                showIcon
                message={t('panel.pinBlocked', { until: dayjs(card.pinBlockedUntil).format('YYYY-MM-DD HH:mm') })}
              />
            )}
            {card.status === 'UNDER_REVIEW' || card.status === 'PROCESSING' || card.status === 'SHIPPED' ? (
              <Alert type="info" showIcon message={t(`panel.statusNote.${card.status}`)} />
            ) : null}
          </Flex>
          <Flex vertical gap={12} style={{ flex: '1 1 280px', minWidth: 0 }}>
            <div className="card-panel__actions">
              <Button type="primary" disabled={!usable} onClick={() => setModal('topUp')} data-testid="card-topup">
                {t('actions.topUp')}
              </Button>
              <Button disabled={!usable || reveal.details !== null} onClick={openReveal} data-testid="card-reveal">
                {t('actions.reveal')}
              </Button>
              <Button disabled={!usable} onClick={() => setModal('pin')} data-testid="card-pin-open">
                {t(card.isPinSet ? 'actions.changePin' : 'actions.setPin')}
              </Button>
              <Button disabled={!detail.data} onClick={() => setModal('rules')} data-testid="card-rules-open">
                {t('actions.rules')}
              </Button>
              <Button disabled={!detail.data} onClick={() => setModal('limits')} data-testid="card-limits-open">
                {t('actions.limits')}
              </Button>
            </div>
            <Flex align="center" gap={8}>
              <Switch
                checked={card.isLocked}
                disabled={!usable}
                loading={lock.isPending}
                onChange={(isLocked) => lock.mutate({ id: card.id, isLocked })}
                data-testid="card-lock"
                aria-label={t('panel.lock')}
              />
              <span>{card.isLocked ? t('panel.locked') : t('panel.lock')}</span>
            </Flex>
            {detail.data && <RulesSummary card={detail.data} />}
          </Flex>
        </Flex>
      </Panel>
      <Panel title={t('tx.title')}>
        <CardTransactions card={card} pageID={pageID} onPage={setPageID} />
      </Panel>
      <Suspense fallback={null}>
        {modal === 'topUp' && <TopUpModal card={card} config={config} onClose={() => setModal(null)} />}
        {modal === 'pin' && <PinModal card={card} onClose={() => setModal(null)} />}
        {modal === 'rules' && detail.data && <RulesModal card={detail.data} onClose={() => setModal(null)} />}
        {modal === 'limits' && detail.data && <LimitRequestModal card={detail.data} onClose={() => setModal(null)} />}
      </Suspense>
    </Flex>
  );
}

/** One line of the card's own rules, when any is set. */
function RulesSummary({ card }: { card: NonNullable<ReturnType<typeof useCard>['data']> }) {
  const { t } = useTranslation('cards');
  const { blockedMccs, perTransactionMax, askAbove } = card.spendRules;
  const parts = [
    blockedMccs.length > 0 && t('rules.summaryBlocked', { count: blockedMccs.length }),
    perTransactionMax !== null && t('rules.summaryMax', { amount: money(perTransactionMax, card.currency) }),
    askAbove !== null && t('rules.summaryAsk', { amount: money(askAbove, card.currency) }),
  ].filter((part): part is string => typeof part === 'string');
  if (parts.length === 0) return null;
  return (
    <Typography.Text type="secondary" data-testid="card-rules-summary">
      {parts.join(' · ')}
    </Typography.Text>
  );
}
