import type { Card } from '@meridian/contracts/cards';
import { Alert, Descriptions, Flex, Tag } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useNow } from '../hooks/use-now.ts';
import { money, secondsLeft } from '../lib/card-format.ts';

/**
 * The chosen card's balance, held amount, status (and lock) and network, with a notice while the
 * PIN is blocked and one for a card still on its way (under review, processing, shipped).
 */
export function CardFacts({ card }: { card: Card }) {
  const { t } = useTranslation('cards');
  const nowMs = useNow(30_000, card.pinBlockedUntil !== null);
  const isPinBlocked = card.pinBlockedUntil !== null && secondsLeft(card.pinBlockedUntil, nowMs) > 0;
  return (
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
  );
}
