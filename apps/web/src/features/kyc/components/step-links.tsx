import { Button, Flex, Result } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../../config/paths.ts';
import { formatDateTime } from '../lib/format-time.ts';
import { useIdentitySearch } from '../lib/use-identity-search.ts';

/**
 * The buttons after a step: back to the overview (keeping `returnTo` and
 * `locale`), and — the primary one — back where the user came from when a `returnTo` was given.
 */
export function StepLinks({ extra }: { extra?: ReactNode }) {
  const { t } = useTranslation('kyc');
  const { returnTo, withSearch } = useIdentitySearch();
  return (
    <Flex gap={8} wrap justify="center">
      {extra}
      <Link to={withSearch(pathTo('Identity'))}>
        <Button type={returnTo ? 'default' : 'primary'} data-testid="kyc-to-overview">
          {t('basic.toOverview')}
        </Button>
      </Link>
      {returnTo && (
        <Link to={returnTo}>
          <Button type="primary" data-testid="kyc-return">
            {t('basic.continueBack')}
          </Button>
        </Link>
      )}
    </Flex>
  );
}

/** "Under review, decided by …" for a submitted step (the expected time in the user's language and zone). */
export function UnderReviewResult({ expectedDecisionAt }: { expectedDecisionAt: string | null }) {
  const { t, i18n } = useTranslation('kyc');
  return (
    <Result
      data-testid="kyc-under-review"
      status="info"
      title={t('basic.underReviewTitle')}
      subTitle={
        expectedDecisionAt
          ? t('basic.underReviewText', { time: formatDateTime(expectedDecisionAt, i18n.language) })
          : undefined
      }
      extra={<StepLinks />}
    />
  );
}

/**
 * The page of a step that needs an earlier level first (the level the server's gate reads): what is
 * missing, a button to the step that comes first (basic KYC, or the investor profile — the first of
 * investor verification's steps) and one to the overview.
 */
export function NeedsEarlierStep({ step }: { step: 'basic' | 'investor' }) {
  const { t } = useTranslation('kyc');
  const { withSearch } = useIdentitySearch();
  return (
    <Result
      data-testid="kyc-needs-level"
      data-step={step}
      status="warning"
      title={t(`common.needs.${step}`)}
      extra={
        <Flex gap={8} wrap justify="center">
          <Link to={withSearch(pathTo(step === 'basic' ? 'IdentityBasic' : 'IdentityInvestor'))}>
            <Button type="primary" data-testid="kyc-needs-link">
              {t('overview.start')}
            </Button>
          </Link>
          <Link to={withSearch(pathTo('Identity'))}>
            <Button data-testid="kyc-to-overview">{t('basic.toOverview')}</Button>
          </Link>
        </Flex>
      }
    />
  );
}
