import { identityEndpoints } from '@meridian/contracts/identity';
import { Alert, Button, Checkbox, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../../components/page-frame.tsx';
import { pathTo } from '../../../config/paths.ts';
import { clearSession } from '../../../lib/session.ts';
import { openSecurityCheck } from '../../../stores/modal-store.ts';
import { RequireUser } from '../../../components/require-user.tsx';

/**
 * `/my/security/account/delete`: close the account after the security check (spec §6). The server
 * refuses while any balance, holding, loan or card remains and says which.
 */
export function DeleteAccountPage() {
  const { t } = useTranslation('identity');
  const [isUnderstood, setIsUnderstood] = useState(false);
  return (
    <RequireUser>
      <PageFrame>
        <div className="content-card" data-testid="delete-account-page" style={{ maxWidth: 560 }}>
          <Alert
            type="warning"
            showIcon
            message={t('delete.warningTitle')}
            description={t('delete.warning')}
            style={{ marginBottom: 16 }}
          />
          <Typography.Paragraph>{t('delete.retention')}</Typography.Paragraph>
          <Checkbox
            checked={isUnderstood}
            onChange={(event) => setIsUnderstood(event.target.checked)}
            data-testid="delete-understood"
          >
            {t('delete.understood')}
          </Checkbox>
          <div style={{ marginTop: 16 }}>
            <Button
              danger
              type="primary"
              disabled={!isUnderstood}
              data-testid="delete-submit"
              onClick={() =>
                openSecurityCheck({
                  endpoint: identityEndpoints.cancelAccount,
                  input: { body: {} },
                  onSuccess: () => {
                    clearSession();
                    window.location.assign(pathTo('Home'));
                  },
                })
              }
            >
              {t('delete.submit')}
            </Button>
          </div>
        </div>
      </PageFrame>
    </RequireUser>
  );
}
