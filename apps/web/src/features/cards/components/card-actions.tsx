import type { Card } from '@meridian/contracts/cards';
import { Button, Flex, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { useCard } from '../api/get-card.ts';
import { useSetCardLock } from '../api/set-card-lock.ts';
import { isUsable, money } from '../lib/card-format.ts';

/** The card's own details (spend rules, limits), as `useCard` answers them. */
type CardDetail = NonNullable<ReturnType<typeof useCard>['data']>;

/** The chosen card's dialogs, opened from its actions. */
export type CardModal = 'topUp' | 'pin' | 'rules' | 'limits';

/**
 * The chosen card's actions: Top up, Reveal (disabled while revealed), PIN set/change, spend rules
 * and a limit request (once the card's details are loaded), the lock switch (sent at once) and a
 * summary of the spend rules.
 */
export function CardActions({
  card,
  detail,
  isRevealed,
  onReveal,
  onOpen,
}: {
  card: Card;
  detail: CardDetail | undefined;
  isRevealed: boolean;
  onReveal: () => void;
  onOpen: (modal: CardModal) => void;
}) {
  const { t } = useTranslation('cards');
  const lock = useSetCardLock();
  const usable = isUsable(card);
  return (
    <Flex vertical gap={12} style={{ flex: '1 1 280px', minWidth: 0 }}>
      <div className="card-panel__actions">
        <Button type="primary" disabled={!usable} onClick={() => onOpen('topUp')} data-testid="card-topup">
          {t('actions.topUp')}
        </Button>
        <Button disabled={!usable || isRevealed} onClick={onReveal} data-testid="card-reveal">
          {t('actions.reveal')}
        </Button>
        <Button disabled={!usable} onClick={() => onOpen('pin')} data-testid="card-pin-open">
          {t(card.isPinSet ? 'actions.changePin' : 'actions.setPin')}
        </Button>
        <Button disabled={!detail} onClick={() => onOpen('rules')} data-testid="card-rules-open">
          {t('actions.rules')}
        </Button>
        <Button disabled={!detail} onClick={() => onOpen('limits')} data-testid="card-limits-open">
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
      {detail && <RulesSummary card={detail} />}
    </Flex>
  );
}

/** One line of the card's own rules, when any is set. */
function RulesSummary({ card }: { card: CardDetail }) {
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
