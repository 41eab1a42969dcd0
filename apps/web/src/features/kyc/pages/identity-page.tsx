import { KYC_STATUS, type KycLevel, type QualifyState } from '@meridian/contracts/kyc';
import { Alert, Button, Card, Flex, Skeleton, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo, type StaticRouteName } from '../../../config/paths.ts';
import { useBasicKyc } from '../api/basic-kyc.ts';
import { useKycLevel } from '../api/kyc-level.ts';
import { useAmlState, useInvestorState, useTaxState } from '../api/level-two.ts';
import { useQualification } from '../api/qualification.ts';
import { IdentityShell } from '../components/identity-shell.tsx';
import { formatDateTime } from '../lib/format-time.ts';
import { isolateText } from '../../../lib/bidi.ts';
import {
  amlStepState,
  isStepOpen,
  overviewStepState,
  reviewedStepState,
  type StepState,
  taxStepState,
} from '../lib/kyc-view.ts';
import { useIdentitySearch } from '../lib/use-identity-search.ts';
import './identity-pages.css';

const STATE_COLOURS: Record<StepState, string> = {
  todo: 'default',
  draft: 'processing',
  review: 'warning',
  done: 'success',
  failed: 'error',
  locked: 'default',
};
const LEVELS: KycLevel[] = [0, 1, 2, 3];

/**
 * `/identity`: the user's level, each step's state with its message, what each level opens, a button to each step
 * (docs/kyc.md "Web").
 */
export function IdentityPage() {
  return (
    <IdentityShell>
      <Overview />
    </IdentityShell>
  );
}

interface StepRow {
  key: 'basic' | 'investor' | 'aml' | 'tax' | 'qualified';
  route: StaticRouteName;
  state: StepState;
  message: string | null;
}

function Overview() {
  const { t, i18n } = useTranslation('kyc');
  const { returnTo, withSearch } = useIdentitySearch();
  const basic = useBasicKyc();
  const basicState = reviewedStepState(basic.data);
  // The level is the server's (the one every gate reads); the steps' rows only say how each step stands.
  const kycLevel = useKycLevel();
  const level = kycLevel.level ?? 0;
  const isLevelOne = isStepOpen('investor', level);
  const isLevelTwo = isStepOpen('qualified', level);
  const investor = useInvestorState(isLevelOne);
  const aml = useAmlState(isLevelOne);
  const tax = useTaxState(isLevelOne);
  const qualification = useQualification(isLevelTwo);
  // Until every state asked for is known (a step still loading would read as not started).
  const isLoading =
    basic.isPending ||
    kycLevel.isPending ||
    (isLevelOne && (investor.isPending || aml.isPending || tax.isPending)) ||
    (isLevelTwo && qualification.isPending);
  if (isLoading) return <Skeleton active />;

  const investorState = overviewStepState('investor', level, reviewedStepState(investor.data));
  const amlState = overviewStepState('aml', level, amlStepState(aml.data));
  const taxState = overviewStepState('tax', level, taxStepState(tax.data));
  const qualifiedState = overviewStepState('qualified', level, reviewedStepState(qualifiedOf(qualification.data)));

  const messageOf = (
    status: number | undefined,
    message: string | undefined,
    expectedAt: string | null | undefined,
  ): string | null => {
    if (status === KYC_STATUS.FAILED && message) return t('overview.reason', { reason: isolateText(message) });
    if (status === KYC_STATUS.UNDER_REVIEW && expectedAt)
      return t('overview.expected', { time: formatDateTime(expectedAt, i18n.language) });
    return null;
  };
  const rows: StepRow[] = [
    {
      key: 'basic',
      route: 'IdentityBasic',
      state: basicState,
      message: messageOf(basic.data?.status, basic.data?.message, basic.data?.expectedDecisionAt),
    },
    {
      key: 'investor',
      route: 'IdentityInvestor',
      state: investorState,
      message: messageOf(investor.data?.status, investor.data?.message, investor.data?.expectedDecisionAt),
    },
    { key: 'aml', route: 'IdentityAml', state: amlState, message: null },
    {
      key: 'tax',
      route: 'IdentityTax',
      state: taxState,
      // An approved change of country superseded the form on file: a new one is due.
      message:
        tax.data?.isNewFormRequired && tax.data.newFormDueAt
          ? t('residence.newTaxFormDue', { time: formatDateTime(tax.data.newFormDueAt, i18n.language) })
          : null,
    },
    {
      key: 'qualified',
      route: 'IdentityQualified',
      state: qualifiedState,
      message:
        qualification.data?.status === KYC_STATUS.VERIFIED && qualification.data.validUntil
          ? t('overview.validUntil', { time: formatDateTime(qualification.data.validUntil, i18n.language) })
          : messageOf(qualification.data?.status, qualification.data?.message, qualification.data?.expectedDecisionAt),
    },
  ];
  const actionOf = (state: StepState) =>
    state === 'failed' ? 'fix' : state === 'draft' ? 'continue' : state === 'todo' ? 'start' : 'view';

  return (
    <Flex vertical gap={16} data-testid="identity-page" data-level={level}>
      <Card>
        <Typography.Title level={4} style={{ marginTop: 0 }} data-testid="identity-level">
          {t('overview.level', { level: `${level} · ${t(`overview.levels.${level}`)}` })}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t('overview.subtitle')}</Typography.Paragraph>
        <ul className="kyc-level-list">
          {LEVELS.map((each) => (
            <li key={each} className={each <= level ? 'kyc-level-reached' : undefined}>
              {t('overview.levelOpens', {
                level: `${each} · ${t(`overview.levels.${each}`)}`,
                opens: t(`overview.opens.${each}`),
              })}
            </li>
          ))}
        </ul>
        {returnTo && (
          <Link to={returnTo}>
            <Button data-testid="identity-return">{t('overview.back')}</Button>
          </Link>
        )}
      </Card>
      <Card>
        {rows.map((row) => (
          <div key={row.key} className="kyc-step-row" data-testid={`identity-step-${row.key}`} data-state={row.state}>
            <Flex justify="space-between" align="center" gap={12} wrap>
              <Flex gap={8} wrap align="center">
                <Typography.Text strong>{t(`overview.steps.${row.key}`)}</Typography.Text>
                <Tag color={STATE_COLOURS[row.state]}>
                  {t(
                    row.key === 'qualified' && row.state === 'locked'
                      ? 'overview.state.lockedInvestor'
                      : `overview.state.${row.state}`,
                  )}
                </Tag>
              </Flex>
              {row.state !== 'locked' && (
                <Link to={withSearch(pathTo(row.route))}>
                  <Button type={row.state === 'done' || row.state === 'review' ? 'default' : 'primary'} size="small">
                    {t(`overview.${actionOf(row.state)}`)}
                  </Button>
                </Link>
              )}
            </Flex>
            {row.message && (
              <Alert
                style={{ marginTop: 8 }}
                type={row.state === 'failed' ? 'error' : 'info'}
                title={row.message}
                showIcon
              />
            )}
          </div>
        ))}
      </Card>
      {isLevelOne && (
        <Card size="small" data-testid="identity-residence">
          <Flex justify="space-between" align="center" gap={12} wrap>
            <Typography.Text>{t('residence.overviewLink')}</Typography.Text>
            <Link to={withSearch(pathTo('IdentityResidence'))}>
              <Button size="small">{t('overview.start')}</Button>
            </Link>
          </Flex>
        </Card>
      )}
    </Flex>
  );
}

/** The qualified-investor state as a reviewed step (it keeps no draft); Expired (4) reads as not started. */
function qualifiedOf(state: QualifyState | undefined): { status: number; draft: Record<string, never> } | undefined {
  if (!state) return undefined;
  return { status: state.status === 4 ? KYC_STATUS.NONE : state.status, draft: {} };
}
