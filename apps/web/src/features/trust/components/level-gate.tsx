import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { ApiError } from '../../../lib/api-client.ts';

/** The missing verification step a 143 answer names (docs/kyc.md), or the identity overview. */
function stepRoute(error: ApiError): string {
  const content = error.response.content;
  const route = typeof content === 'object' && content !== null ? (content as { route?: unknown }).route : undefined;
  return typeof route === 'string' && route.startsWith('/') ? route : '/identity';
}

/**
 * The level-2 prompt of the trust pages: the server answered 143 KYC_REQUIRED (a trust needs the
 * investor level). The message names the step; the button opens it and comes back here afterwards.
 */
export function LevelGate({ error }: { error: ApiError }) {
  const { t } = useTranslation('trust');
  const location = useLocation();
  const to = `${stepRoute(error)}?returnTo=${encodeURIComponent(`${location.pathname}${location.search}`)}`;
  return (
    <Result
      data-testid="trust-level-gate"
      status="warning"
      title={t('gate.title')}
      subTitle={error.message}
      extra={
        <Link to={to}>
          <Button type="primary" data-testid="trust-level-gate-action">
            {t('gate.action')}
          </Button>
        </Link>
      }
    />
  );
}
