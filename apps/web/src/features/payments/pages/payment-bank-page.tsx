import { toLocale } from '@meridian/contracts/locale';
import { BANK_ACCOUNT_LIMIT, paymentsEndpoints, type BankAccount } from '@meridian/contracts/payments';
import { Alert, Button, Empty, List, Popconfirm, Skeleton, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { PageFrame } from '../../../components/page-frame.tsx';
import { RequireUser } from '../../../components/require-user.tsx';
import { pathTo } from '../../../config/paths.ts';
import { useSecuredAction } from '../../../hooks/use-secured-action.ts';
import { bankAccountsKey, useBankAccounts } from '../../../lib/get-bank-accounts.ts';
import { useCountries } from '../../../lib/get-countries.ts';
import { KycGate, kycGateOf } from '../components/kyc-gate.tsx';
import { maskAccountNumber } from '../lib/mask.ts';
import './payments.css';

/** One bound account: bank, country, holder, masked number, BIC, wire-time expectation, removal. */
function BankAccountItem({ account, countryName }: { account: BankAccount; countryName: string }) {
  const { t } = useTranslation('payments');
  const client = useQueryClient();
  const removal = useSecuredAction({
    endpoint: paymentsEndpoints.deleteBankAccount,
    onSuccess: () => void client.invalidateQueries({ queryKey: bankAccountsKey }),
  });
  const remove = () => removal.run({ params: { id: account.id }, body: {} });
  return (
    <List.Item className="bank-account" data-testid="bank-account">
      <div className="bank-account__body">
        <div className="bank-account__head">
          <span className="bank-account__title">
            <Typography.Text strong>{account.bankName}</Typography.Text>
            <Tag>{countryName}</Tag>
            <Tag color={account.isDomestic ? 'green' : 'blue'}>
              {account.isDomestic ? t('list.domestic') : t('list.international')}
            </Tag>
          </span>
          <Popconfirm
            title={t('list.deleteConfirm')}
            description={t('list.deleteConfirmDetail')}
            okText={t('list.delete')}
            cancelText={t('list.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={remove}
          >
            <Button size="small" danger data-testid="bank-account-delete">
              {t('list.delete')}
            </Button>
          </Popconfirm>
        </div>
        <dl className="bank-account__facts">
          <dt>{t('field.accountHolder')}</dt>
          <dd>{account.accountHolder}</dd>
          <dt>{account.iban ? t('field.iban') : t('field.accountNumber')}</dt>
          <dd>
            <Typography.Text code data-testid="bank-account-number">
              {maskAccountNumber(account.accountNumber, account.iban !== null)}
            </Typography.Text>
          </dd>
          <dt>{t('field.swiftBic')}</dt>
          <dd>{account.swiftBic}</dd>
          <dt>{t('field.currency')}</dt>
          <dd>{account.currency}</dd>
          <dt>{t('list.wireTime')}</dt>
          <dd>{account.isDomestic ? t('list.wireTimeDomestic') : t('list.wireTimeInternational')}</dd>
          <dt>{t('list.addedAt')}</dt>
          <dd>{dayjs(account.createdAt).format('YYYY-MM-DD HH:mm')}</dd>
        </dl>
      </div>
    </List.Item>
  );
}

/**
 * /my/payment/bank: the USD bank accounts bound for wires, numbers masked;
 * removing one asks for confirmation, then the security check (BANK_ACCOUNT_DELETE). Below
 * identity level 2 the page shows the verification prompt instead.
 */
export function PaymentBankPage() {
  const { t, i18n } = useTranslation('payments');
  const locale = toLocale(i18n.language);
  const navigate = useNavigate();
  const accounts = useBankAccounts();
  const countries = useCountries();
  const gate = kycGateOf(accounts.error);
  const list = accounts.data ?? [];
  const isFull = list.length >= BANK_ACCOUNT_LIMIT;
  const countryName = (code: string) => {
    const country = countries.data?.find((item) => item.code === code);
    return country ? (locale === 'zh-HK' ? country.nameZh : country.nameEn) : code;
  };
  const addButton = (
    <Button
      type="primary"
      disabled={isFull}
      onClick={() => void navigate(pathTo('AddBank'))}
      data-testid="bank-account-add"
    >
      {t('list.add')}
    </Button>
  );

  return (
    <RequireUser>
      <PageFrame subtitle={t('list.subtitle', { limit: BANK_ACCOUNT_LIMIT })}>
        <div className="content-card payments-card" data-testid="payment-bank">
          {gate ? (
            <KycGate gate={gate} />
          ) : accounts.isLoading ? (
            <Skeleton active />
          ) : accounts.isError ? (
            <Alert type="error" showIcon title={t('list.loadFailed')} />
          ) : list.length === 0 ? (
            <Empty description={t('list.empty')}>{addButton}</Empty>
          ) : (
            <>
              <div className="payments-card__toolbar">
                <Typography.Text type="secondary" data-testid="bank-account-count">
                  {t('list.count', { count: list.length, limit: BANK_ACCOUNT_LIMIT })}
                </Typography.Text>
                {addButton}
              </div>
              {isFull && (
                <Alert
                  className="payments-card__notice"
                  type="info"
                  showIcon
                  title={t('list.full', { limit: BANK_ACCOUNT_LIMIT })}
                />
              )}
              <List
                dataSource={list}
                rowKey="id"
                data-testid="bank-account-list"
                renderItem={(account) => (
                  <BankAccountItem account={account} countryName={countryName(account.country)} />
                )}
              />
            </>
          )}
        </div>
      </PageFrame>
    </RequireUser>
  );
}
