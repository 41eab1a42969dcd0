import type { FreezeResult } from '@meridian/contracts/freeze-links';
import { Alert, Button, Result, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { pathTo } from '../../../config/paths.ts';
import { isSuccess } from '../../../lib/api-client.ts';
import { freezeAccount } from '../api/freeze-account.ts';
import './freeze-page.css';

type State =
  { kind: 'ready' } | { kind: 'busy' } | { kind: 'done'; result: FreezeResult } | { kind: 'failed'; message: string };

/**
 * `/freeze/:token`: the page a security email's "this wasn't me" link opens.
 * Opening it changes nothing (mail scanners fetch links); one press freezes the account without
 * signing in — sessions and API keys revoked, waiting withdrawals cancelled back, money stopped —
 * and the page shows what was done and that support unfreezes after identity checks.
 */
export function FreezePage() {
  const { t } = useTranslation('identity');
  const { token = '' } = useParams();
  const [state, setState] = useState<State>({ kind: 'ready' });

  const freeze = async () => {
    setState({ kind: 'busy' });
    const response = await freezeAccount(token);
    setState(
      isSuccess(response) ? { kind: 'done', result: response.content } : { kind: 'failed', message: response.message },
    );
  };

  return (
    <div className="container section">
      <PageFrame>
        <div className="content-card freeze-page" data-testid="freeze-page">
          {state.kind === 'done' ? (
            <Result
              status="success"
              title={t('freeze.doneTitle')}
              subTitle={t('freeze.doneText')}
              data-testid="freeze-done"
              extra={
                <ul className="freeze-page__facts">
                  <li>{t('freeze.sessionsRevoked', { count: state.result.sessionsRevoked })}</li>
                  <li>{t('freeze.apiKeysRevoked', { count: state.result.apiKeysRevoked })}</li>
                  <li>{t('freeze.withdrawalsCancelled', { count: state.result.withdrawalsCancelled })}</li>
                </ul>
              }
            />
          ) : (
            <>
              <Typography.Title level={3}>{t('freeze.title')}</Typography.Title>
              <Typography.Paragraph>{t('freeze.intro')}</Typography.Paragraph>
              <ul className="freeze-page__facts">
                <li>{t('freeze.effectSessions')}</li>
                <li>{t('freeze.effectKeys')}</li>
                <li>{t('freeze.effectMoney')}</li>
                <li>{t('freeze.effectWithdrawals')}</li>
              </ul>
              <Typography.Paragraph type="secondary">{t('freeze.unfreezeNote')}</Typography.Paragraph>
              {state.kind === 'failed' && (
                <Alert
                  type="error"
                  showIcon
                  message={state.message}
                  style={{ marginBottom: 16 }}
                  data-testid="freeze-error"
                />
              )}
              <Button
                type="primary"
                danger
                size="large"
                block
                loading={state.kind === 'busy'}
                disabled={state.kind === 'failed'}
                onClick={() => void freeze()}
                data-testid="freeze-confirm"
              >
                {t('freeze.confirm')}
              </Button>
              <div className="freeze-page__home">
                <Link to={pathTo('Home')}>{t('freeze.home')}</Link>
              </div>
            </>
          )}
        </div>
      </PageFrame>
    </div>
  );
}
