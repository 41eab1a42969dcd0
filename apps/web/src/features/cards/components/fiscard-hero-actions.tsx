import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../../config/paths.ts';
import { useUserId } from '../../../lib/session.ts';
import { openActionModal } from '../../../stores/modal-store.ts';

/** Where the card pages send a signed-in user to apply: the card account with the apply form open. */
export const APPLY_LINK = `${pathTo('FiscardAccount')}?apply=1`;

/**
 * The hero button of the card marketing pages: a signed-in user goes to the card account's apply
 * form; a guest is asked to log in and comes back there afterwards.
 */
export function FiscardHeroActions() {
  const { t } = useTranslation('marketing');
  const userId = useUserId();
  if (userId) {
    return (
      <>
        <Link to={APPLY_LINK} className="btn btn--primary btn--lg" data-testid="fiscard-apply">
          {t('fiscard.cta.apply')}
        </Link>
        <Link to={pathTo('FiscardAccount')} className="btn btn--ghost btn--lg">
          {t('fiscard.cta.myCards')}
        </Link>
      </>
    );
  }
  return (
    <button
      type="button"
      className="btn btn--primary btn--lg"
      onClick={() => openActionModal('login', { returnTo: APPLY_LINK })}
      data-testid="fiscard-apply"
    >
      {t('fiscard.cta.apply')}
    </button>
  );
}
