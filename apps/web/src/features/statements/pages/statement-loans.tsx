import type { StatementLoan, StatementLoanMovement } from '@meridian/contracts/statements';
import { Card, Descriptions, Flex, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { groupDecimal } from '../lib/range.ts';

/**
 * The statement's loans (docs/statements.md "Loans"): per loan its principal outstanding and
 * interest owed at the opening and the closing, the period's interest charged and paid and fees
 * paid, and its movements (borrow, repay, liquidation). On a phone the movements are a list.
 */
export function StatementLoans({ loans, isMobile }: { loans: readonly StatementLoan[]; isMobile: boolean }) {
  const { t } = useTranslation('statements');
  if (loans.length === 0) return null;
  return (
    <Flex vertical gap={12} data-testid="statement-loans">
      <Typography.Title level={5}>{t('loans.title')}</Typography.Title>
      {loans.map((loan) => (
        <Card key={loan.reference} size="small" title={`${loan.reference} · ${loan.coin}`}>
          <Descriptions size="small" column={isMobile ? 1 : 3}>
            <Descriptions.Item label={t('loans.principalOpening')}>
              {groupDecimal(loan.principalOpening)}
            </Descriptions.Item>
            <Descriptions.Item label={t('loans.principalClosing')}>
              <span data-testid="statement-loan-principal">{groupDecimal(loan.principalClosing)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('loans.feesPaid')}>{groupDecimal(loan.feesPaid)}</Descriptions.Item>
            <Descriptions.Item label={t('loans.interestOwedOpening')}>
              {groupDecimal(loan.interestOwedOpening)}
            </Descriptions.Item>
            <Descriptions.Item label={t('loans.interestOwedClosing')}>
              {groupDecimal(loan.interestOwedClosing)}
            </Descriptions.Item>
            <Descriptions.Item label={t('loans.interestChargedPaid')}>
              {groupDecimal(loan.interestCharged)} / {groupDecimal(loan.interestPaid)}
            </Descriptions.Item>
          </Descriptions>
          {loan.movements.length > 0 &&
            (isMobile ? (
              <MobileLoanMovements movements={loan.movements} />
            ) : (
              <LoanMovements movements={loan.movements} />
            ))}
        </Card>
      ))}
    </Flex>
  );
}

function LoanMovements({ movements }: { movements: readonly StatementLoanMovement[] }) {
  const { t } = useTranslation('statements');
  const amount = (key: keyof StatementLoanMovement, title: string) => ({
    key,
    title,
    align: 'right' as const,
    render: (_: unknown, m: StatementLoanMovement) => groupDecimal(String(m[key])),
  });
  const columns: ColumnsType<StatementLoanMovement> = [
    { key: 'at', title: t('movements.at'), render: (_, m) => m.at.slice(0, 19).replace('T', ' ') },
    { key: 'kind', title: t('movements.kind'), render: (_, m) => t(`loans.kinds.${m.kind}`) },
    amount('principal', t('loans.principal')),
    amount('interestCharged', t('loans.interestCharged')),
    amount('interestPaid', t('loans.interestPaid')),
    amount('feePaid', t('loans.feePaid')),
  ];
  return (
    <Table<StatementLoanMovement>
      size="small"
      rowKey={(m) => String(m.entryId)}
      columns={columns}
      dataSource={[...movements]}
      pagination={false}
      scroll={{ x: 720 }}
      data-testid="statement-loan-movements"
    />
  );
}

function MobileLoanMovements({ movements }: { movements: readonly StatementLoanMovement[] }) {
  const { t } = useTranslation('statements');
  return (
    <ul className="statement-mobile-movements" data-testid="statement-loan-movements">
      {movements.map((m) => (
        <li key={m.entryId}>
          <Flex justify="space-between" gap={8}>
            <span>{t(`loans.kinds.${m.kind}`)}</span>
            <span>
              {t('loans.principal')} {groupDecimal(m.principal)}
            </span>
          </Flex>
          <div className="statement-mobile-meta">{m.at.slice(0, 16).replace('T', ' ')}</div>
          <div className="statement-mobile-meta">
            {t('loans.interestCharged')} {groupDecimal(m.interestCharged)} · {t('loans.interestPaid')}{' '}
            {groupDecimal(m.interestPaid)} · {t('loans.feePaid')} {groupDecimal(m.feePaid)}
          </div>
        </li>
      ))}
    </ul>
  );
}
