import type { LoanConfig, LoanOrder } from '@meridian/contracts/loans';
import { Alert, Button, Card, Descriptions, Flex, Space, Tag } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { hongKongMinute, pct, thresholdPrice } from '../lib/format.ts';
import { LoanStatusTag } from './loan-status-tag.tsx';
import { LtvGauge } from './ltv-gauge.tsx';
import { money } from '../../../lib/money.ts';
import { MONEY_ROUNDING } from '@meridian/contracts/money-format';

/** What a loan card's buttons open. */
export type LoanAction = 'repay' | 'adjust' | 'protect';

/**
 * One current loan (loan labels): status, LTV gauge against the loan's own
 * levels, during a margin call the deadline to act (Hong Kong time), debt and collateral, the
 * liquidation price, rates and dates, and Repay / Adjust collateral / Protection rule.
 */
export function LoanCard({
  loan,
  config,
  onAction,
}: {
  loan: LoanOrder;
  config: LoanConfig;
  onAction: (action: LoanAction, loan: LoanOrder) => void;
}) {
  const { t } = useTranslation('loans');
  const canAct = loan.status === 3 || loan.status === 4;
  return (
    <Card
      className="loan-card"
      data-testid="loan-card"
      data-order-id={loan.orderId}
      title={
        <Flex gap={8} align="center" wrap>
          <span>{money(loan.principal, loan.loanCoin)}</span>
          <LoanStatusTag status={loan.status} />
          {loan.hasProtection && <Tag color="blue">{t('loans.protect')}</Tag>}
        </Flex>
      }
      extra={<span className="loan-card__id">{t('loans.orderNo', { id: loan.orderId })}</span>}
    >
      <LtvGauge
        ltvPct={loan.ltvPct}
        levels={{
          initialPct: config.initialLtvPct,
          marginCallPct: loan.marginCallLtvPct,
          liquidationPct: loan.liquidationLtvPct,
        }}
        compact
        testId="loan-ltv"
      />
      {loan.marginCallDeadline && (
        // The cure window of a margin call (docs/decisions/0005-margin-call-before-liquidation.md).
        <Alert
          type="warning"
          showIcon
          style={{ marginTop: 12 }}
          data-testid="loan-margin-call-deadline"
          message={t('loans.marginCallDeadline', { time: hongKongMinute(loan.marginCallDeadline) })}
          description={t('loans.marginCallDeadlineHelp', {
            liquidationPct: pct(loan.liquidationLtvPct),
            hardPct: pct(config.hardLiquidationLtvPct),
          })}
        />
      )}
      <Descriptions size="small" column={{ xs: 1, sm: 2 }} style={{ marginTop: 12 }} className="loan-figures">
        <Descriptions.Item label={t('loans.debt')}>
          <span data-testid="loan-debt">{money(loan.debt, loan.loanCoin, { rounding: MONEY_ROUNDING.owed })}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('loans.collateral')}>
          <span data-testid="loan-collateral-amount">{money(loan.collateralAmount, loan.collateralCoin)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('loans.liquidationPrice')}>
          <span data-testid="loan-liquidation-price">
            {loan.liquidationPrice ? thresholdPrice(loan.liquidationPrice) : '—'}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('loans.interest')}>
          {money(loan.interest, loan.loanCoin, { rounding: MONEY_ROUNDING.owed })}
        </Descriptions.Item>
        <Descriptions.Item label={t('loans.dailyRate')}>{pct(loan.dailyRatePct)}</Descriptions.Item>
        <Descriptions.Item label={t('loans.term')}>{t('loans.termDays', { count: loan.termDays })}</Descriptions.Item>
        <Descriptions.Item label={t('loans.borrowedAt')}>
          {dayjs(loan.borrowTime).format('YYYY-MM-DD HH:mm')}
        </Descriptions.Item>
        <Descriptions.Item label={t('loans.dueDate')}>
          <span data-testid="loan-due-date">{t('loans.dueAt', { date: loan.repaymentDate })}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('loans.marginCallLevel')}>{pct(loan.marginCallLtvPct)}</Descriptions.Item>
        <Descriptions.Item label={t('loans.liquidationLevel')}>{pct(loan.liquidationLtvPct)}</Descriptions.Item>
      </Descriptions>
      <Space wrap style={{ marginTop: 12 }}>
        <Button type="primary" disabled={!canAct} onClick={() => onAction('repay', loan)} data-testid="loan-repay">
          {t('loans.repay')}
        </Button>
        <Button disabled={!canAct} onClick={() => onAction('adjust', loan)} data-testid="loan-adjust">
          {t('loans.adjust')}
        </Button>
        <Button disabled={!canAct} onClick={() => onAction('protect', loan)} data-testid="loan-protect">
          {t('loans.protect')}
        </Button>
      </Space>
    </Card>
  );
}
