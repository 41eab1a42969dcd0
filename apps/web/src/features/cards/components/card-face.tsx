import type { Card, CardReveal } from '@meridian/contracts/cards';
import { useTranslation } from 'react-i18next';
import { expiryText, groupedNumber, maskedNumber, money } from '../lib/card-format.ts';

/** The network mark as text (no brand artwork is shipped): "VISA" or "Mastercard". */
const NETWORK_MARK = { VISA: 'VISA', MASTERCARD: 'Mastercard' } as const;

/**
 * One card drawn as a card face: kind and network mark, the number masked to its first 4 and last 4
 * digits — or, during a reveal, the full number and CVV — the holder, the expiry, the
 * currency with the spendable balance, and the status or lock. Clicking selects it.
 */
export function CardFace({
  card,
  reveal,
  isSelected,
  onSelect,
}: {
  card: Card;
  reveal?: CardReveal | null;
  isSelected?: boolean;
  onSelect?: () => void;
}) {
  const { t } = useTranslation('cards');
  const badge = card.isLocked ? t('face.locked') : card.status === 'ACTIVE' ? null : t(`status.${card.status}`);
  return (
    <button
      type="button"
      className={`card-face card-face--${card.network.toLowerCase()}${isSelected ? ' card-face--selected' : ''}${
        card.isLocked || card.status !== 'ACTIVE' ? ' card-face--inactive' : ''
      }`}
      onClick={onSelect}
      aria-pressed={isSelected}
      data-testid="card-face"
      data-card-id={card.id}
    >
      <span className="card-face__top">
        <span className="card-face__kind">{t(`kind.${card.kind}`)}</span>
        {badge && (
          <span className="card-face__badge" data-testid="card-face-badge">
            {badge}
          </span>
        )}
      </span>
      <span className="card-face__number" data-testid={reveal ? 'card-revealed-number' : 'card-masked-number'}>
        {reveal ? groupedNumber(reveal.pan) : maskedNumber(card)}
      </span>
      <span className="card-face__row">
        <span>
          <small>{t('face.holder')}</small>
          {card.cardholderName}
        </span>
        <span>
          <small>{t('face.expiry')}</small>
          {expiryText(card.expiryMonth, card.expiryYear)}
        </span>
        {reveal && (
          <span>
            <small>CVV</small>
            <span data-testid="card-revealed-cvv">{reveal.cvv}</span>
          </span>
        )}
      </span>
      <span className="card-face__bottom">
        <span className="card-face__balance">
          <small>{t('face.balance')}</small>
          <strong data-testid="card-face-balance">{money(card.balance, card.currency)}</strong>
        </span>
        <span className="card-face__network">{NETWORK_MARK[card.network]}</span>
      </span>
    </button>
  );
}
