import { type Card, type CardConfig, cardEndpoints } from '@meridian/contracts/cards';
import { Card as Panel, Flex } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSecuredAction } from '../../../hooks/use-secured-action.ts';
import { useCard } from '../api/get-card.ts';
import { useReveal } from '../hooks/use-reveal.ts';
import { CardActions, type CardModal } from './card-actions.tsx';
import { CardFaceList } from './card-face-list.tsx';
import { CardFacts } from './card-facts.tsx';
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
  const reveal = useReveal();
  const [modal, setModal] = useState<CardModal | null>(null);
  const [pageID, setPageID] = useState(1);
  const close = () => setModal(null);

  const revealCall = useSecuredAction({
    endpoint: cardEndpoints.revealCard,
    quietSuccess: true,
    onSuccess: reveal.show,
  });
  const openReveal = () => revealCall.run({ params: { id: card.id }, body: {} });

  return (
    <Flex vertical gap={16} data-testid="card-panel" data-card-id={card.id}>
      <CardFaceList cards={cards} card={card} reveal={reveal} onChoose={onChoose} />
      <Panel title={`${t(`kind.${card.kind}`)} •••• ${card.last4}`}>
        <Flex gap={24} wrap align="flex-start">
          <CardFacts card={card} />
          <CardActions
            card={card}
            detail={detail.data}
            isRevealed={reveal.details !== null}
            onReveal={openReveal}
            onOpen={setModal}
          />
        </Flex>
      </Panel>
      <Panel title={t('tx.title')}>
        <CardTransactions card={card} pageID={pageID} onPage={setPageID} />
      </Panel>
      <Suspense fallback={null}>
        {modal === 'topUp' && <TopUpModal card={card} config={config} onClose={close} />}
        {modal === 'pin' && <PinModal card={card} onClose={close} />}
        {modal === 'rules' && detail.data && <RulesModal card={detail.data} onClose={close} />}
        {modal === 'limits' && detail.data && <LimitRequestModal card={detail.data} onClose={close} />}
      </Suspense>
    </Flex>
  );
}
