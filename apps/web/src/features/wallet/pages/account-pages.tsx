import { parseAmountMinor, toDecimalString } from '@meridian/contracts/money';
import { Button, Card, Col, Empty, Row, Skeleton, Space, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MoneyTable } from '../../../components/money-table.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { DEFAULT_WALLET_COIN, pathTo } from '../../../config/paths.ts';
import { RequireUser } from '../../../components/require-user.tsx';
import { useWalletBalance } from '../../../lib/get-wallet-balance.ts';
import { money } from '../../../lib/money.ts';
import { MONEY_ROUNDING } from '@meridian/contracts/money-format';

/** /my/account/overview: total USD value and the value of each account (Main, Fund, Card, Trust). */
export function AccountOverviewPage() {
  const { t } = useTranslation('wallet');
  const balance = useWalletBalance();
  return (
    <RequireUser>
      <PageFrame>
        {!balance.data ? (
          <Skeleton active />
        ) : (
          <Space direction="vertical" size="large" style={{ width: '100%' }} data-testid="account-overview">
            <Card>
              <Statistic
                title={t('account.totalUsd')}
                value={money(balance.data.overview.totalUsd, 'USD')}
                data-testid="total-usd"
              />
            </Card>
            <Row gutter={[16, 16]}>
              {balance.data.overview.accounts.map((account) => (
                <Col xs={24} md={12} xl={6} key={account.accountType}>
                  <Card>
                    <Statistic
                      title={t(`account.${account.accountType}`)}
                      value={money(account.totalUsd, 'USD')}
                      data-testid={`overview-${account.accountType}`}
                    />
                    {account.accountType === 'MainAccount' && (
                      <Link to={pathTo('MainAccount')}>{t('account.details')}</Link>
                    )}
                    {account.accountType === 'LoanAccount' && (
                      <LoanAccountLines assets={loanAssetsOf(balance.data.wallet.accounts)} />
                    )}
                  </Card>
                </Col>
              ))}
            </Row>
          </Space>
        )}
      </PageFrame>
    </RequireUser>
  );
}

type BalanceAccounts = NonNullable<ReturnType<typeof useWalletBalance>['data']>['wallet']['accounts'];

/** The LoanAccount's assets: the BTC pledged (`frozen`) and each loan coin's debt (a negative `available`). */
function loanAssetsOf(accounts: BalanceAccounts): BalanceAccounts[number]['assets'] {
  return accounts.find((account) => account.accountType === 'LoanAccount')?.assets ?? [];
}

/**
 * The LoanAccount's card lines: the
 * collateral pledged in current loans and the debt per coin, and a link to the loan page.
 */
function LoanAccountLines({ assets }: { assets: BalanceAccounts[number]['assets'] }) {
  const { t } = useTranslation('wallet');
  return (
    <div data-testid="overview-loan-lines">
      {assets.map((asset) => (
        <div key={`${asset.coinCode}-${asset.type}`}>
          <Typography.Text type="secondary">
            {asset.type === 'frozen'
              ? t('account.loanCollateral', {
                  amount: money(asset.amount, asset.coinCode, { unit: 'none' }),
                  coin: asset.coinCode,
                })
              : t('account.loanDebt', {
                  amount: money(asset.amount.replace(/^-/, ''), asset.coinCode, {
                    unit: 'none',
                    rounding: MONEY_ROUNDING.owed,
                  }),
                  coin: asset.coinCode,
                })}
          </Typography.Text>
        </div>
      ))}
      <Link to={pathTo('Loan')}>{t('account.loanDetails')}</Link>
    </div>
  );
}

interface CoinRow {
  coinCode: string;
  available: string;
  frozen: string;
  usd: string | null;
}

/**
 * What a user who holds nothing sees above the (all-zero) table: how to start,
 * with a Deposit button to the deposit page of the default coin.
 */
function EmptyWallet() {
  const { t } = useTranslation('wallet');
  // Empty does not pass data-* attributes to its element: the test id is on a wrapper.
  return (
    <div data-testid="wallet-empty">
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={
          <>
            <Typography.Title level={5} style={{ marginBottom: 4 }}>
              {t('empty.title')}
            </Typography.Title>
            <Typography.Text type="secondary">{t('empty.description')}</Typography.Text>
          </>
        }
        style={{ marginBlock: 8 }}
      >
        <Link to={pathTo('DepositWallet', { coin: DEFAULT_WALLET_COIN })}>
          <Button type="primary" data-testid="wallet-empty-deposit">
            {t('empty.deposit')}
          </Button>
        </Link>
      </Empty>
    </div>
  );
}

/** Whether a decimal string is zero ('0', '0.00'). */
const isZero = (amount: string) => /^0(\.0*)?$/.test(amount);

/**
 * /my/account/main: each coin's available and frozen amounts and USD value, with deposit and withdraw
 * links; for a user who holds nothing, first the empty state that leads to a deposit.
 */
export function MainAccountPage() {
  const { t } = useTranslation('wallet');
  const balance = useWalletBalance();
  const main = balance.data?.wallet.accounts.find((account) => account.accountType === 'MainAccount');
  const rows: CoinRow[] = [];
  for (const asset of main?.assets ?? []) {
    let row = rows.find((r) => r.coinCode === asset.coinCode);
    if (!row) {
      row = { coinCode: asset.coinCode, available: '0', frozen: '0', usd: null };
      rows.push(row);
    }
    if (asset.type === 'available') row.available = asset.amount;
    else row.frozen = asset.amount;
    // USD values are 2-decimal strings; they are added as integer cents, never as floats.
    if (asset.convert !== null)
      row.usd = toDecimalString(
        parseAmountMinor(row.usd ?? '0', 'USD') + parseAmountMinor(asset.convert, 'USD'),
        'USD',
      );
  }
  return (
    <RequireUser>
      <PageFrame>
        <div className="content-card">
          {main && main.assets.every((asset) => isZero(asset.amount)) && <EmptyWallet />}
          {main && (
            <Statistic
              title={t('account.mainTotal')}
              value={money(main.totalUsd, 'USD')}
              style={{ marginBottom: 16 }}
              data-testid="main-total-usd"
            />
          )}
          {/* A phone shows each coin stacked: coin and USD value, the amounts, then Deposit and Withdraw. */}
          <MoneyTable<CoinRow>
            rowKey="coinCode"
            loading={balance.isLoading}
            pagination={false}
            dataSource={rows}
            data-testid="main-account-table"
            mobileTestId="main-account-list"
            scroll={{ x: true }}
            columns={[
              { title: t('account.coin'), dataIndex: 'coinCode', mobile: 'title' },
              {
                title: t('account.available'),
                dataIndex: 'available',
                render: (value: string, row) => (
                  <span data-testid={`available-${row.coinCode}`}>
                    {money(value, row.coinCode, { unit: 'none', rounding: MONEY_ROUNDING.available })}
                  </span>
                ),
              },
              {
                title: t('account.frozen'),
                dataIndex: 'frozen',
                render: (value: string, row) => (
                  <span data-testid={`frozen-${row.coinCode}`}>{money(value, row.coinCode, { unit: 'none' })}</span>
                ),
              },
              {
                title: t('account.usd'),
                dataIndex: 'usd',
                mobile: 'figure',
                render: (value: string | null) => (value === null ? '—' : money(value, 'USD')),
              },
              {
                title: t('account.actions'),
                key: 'actions',
                mobile: 'actions',
                render: (_value, row) => (
                  <Space>
                    <Link to={pathTo('DepositWallet', { coin: row.coinCode })}>
                      <Button size="small">{t('transfer.deposit')}</Button>
                    </Link>
                    <Link to={pathTo('WithdrawWallet', { coin: row.coinCode })}>
                      <Button size="small">{t('transfer.withdraw')}</Button>
                    </Link>
                  </Space>
                ),
              },
            ]}
          />
        </div>
      </PageFrame>
    </RequireUser>
  );
}
