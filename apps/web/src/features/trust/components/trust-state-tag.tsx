import type { TrustState } from '@meridian/contracts/trust';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLOURS: Record<TrustState, string> = { active: 'success', claim: 'warning', closed: 'default' };

/** A trust's state (active, claim, closed) as a coloured tag. */
export function TrustStateTag({ state }: { state: TrustState }) {
  const { t } = useTranslation('trust');
  return (
    <Tag color={COLOURS[state]} data-testid="trust-state">
      {t(`state.${state}`)}
    </Tag>
  );
}
