import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client.ts';

/** The missing verification step of a 143 KYC_REQUIRED refusal: its page and the server's message. */
export function kycGateOf(error: unknown): { route: string; message: string } | null {
  if (!(error instanceof ApiError) || error.statusCode !== 143) return null;
  const content = error.response.content as { route?: unknown } | null;
  if (typeof content?.route !== 'string' || !content.route.startsWith('/')) return null;
  return { route: content.route, message: error.response.message };
}

/**
 * The prompt of a page that needs identity level 2 (docs/kyc.md "Levels and what they open"): what is missing, in the
 * server's words, and a button to that step, coming back here afterwards.
 */
export function KycGate({ gate }: { gate: { route: string; message: string } }) {
  const { t } = useTranslation('payments');
  const location = useLocation();
  const navigate = useNavigate();
  const returnTo = `${location.pathname}${location.search}${location.hash}`;
  return (
    <Result
      status="info"
      data-testid="kyc-gate"
      title={t('gate.title')}
      subTitle={gate.message}
      extra={
        <Button
          type="primary"
          onClick={() => void navigate(`${gate.route}?returnTo=${encodeURIComponent(returnTo)}`)}
          data-testid="kyc-gate-action"
        >
          {t('gate.action')}
        </Button>
      }
    />
  );
}
