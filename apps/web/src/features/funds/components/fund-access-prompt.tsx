import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { openActionModal } from '../../../stores/modal-store.ts';
import { type FundAccess, kycLinkOf } from '../lib/fund-access.ts';

/**
 * What a guest or a user below level 2 sees where the funds would be: log in, or complete the
 * verification step the server named (the 143 answer's page, coming back here afterwards).
 */
export function FundAccessPrompt({ access }: { access: Exclude<FundAccess, { kind: 'ok' }> }) {
  const { t } = useTranslation('funds');
  const location = useLocation();
  const returnTo = `${location.pathname}${location.search}${location.hash}`;
  if (access.kind === 'guest') {
    return (
      <Result
        status="info"
        title={t('access.guestTitle')}
        subTitle={t('access.guestBody')}
        data-testid="fund-guest"
        extra={
          <Button type="primary" onClick={() => openActionModal('login', { returnTo })} data-testid="fund-login">
            {t('access.login')}
          </Button>
        }
      />
    );
  }
  return (
    <Result
      status="warning"
      title={t('access.kycTitle')}
      subTitle={t('access.kycBody')}
      data-testid="fund-kyc"
      extra={
        <Link to={kycLinkOf(access.route, returnTo)}>
          <Button type="primary">{t('access.verify')}</Button>
        </Link>
      }
    />
  );
}
