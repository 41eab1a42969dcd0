import type { Card } from '@meridian/contracts/cards';
import { Button, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Reveal } from '../hooks/use-reveal.ts';
import { CardFace } from './card-face.tsx';

/**
 * The user's cards as faces, the chosen one selected and showing the revealed details with their
 * countdown and Hide; choosing another card hides them.
 */
export function CardFaceList({
  cards,
  card,
  reveal,
  onChoose,
}: {
  cards: Card[];
  card: Card;
  reveal: Reveal;
  onChoose: (id: number) => void;
}) {
  const { t } = useTranslation('cards');
  return (
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
  );
}
