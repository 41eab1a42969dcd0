import { toLocale } from '@meridian/contracts/locale';
import {
  BANK_ACCOUNT_CURRENCY,
  BANK_ACCOUNT_LIMIT,
  countryUsesIban,
  isBankCountry,
  paymentsEndpoints,
} from '@meridian/contracts/payments';
import { validationMessage } from '@meridian/contracts/validation';
import { Alert, Button, Form, Input, Select, Skeleton, Space } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { PageFrame } from '../../../components/page-frame.tsx';
import { RequireUser } from '../../../components/require-user.tsx';
import { pathTo } from '../../../config/paths.ts';
import { useSelf } from '../../../lib/get-self.ts';
import { useSecuredAction } from '../../../hooks/use-secured-action.ts';
import { bankAccountsKey, useBankAccounts } from '../../../lib/get-bank-accounts.ts';
import { useCountries } from '../../../lib/get-countries.ts';
import { KycGate, kycGateOf } from '../components/kyc-gate.tsx';
import { BANK_FORM_FIELDS, bankFieldRule, type BankFormField, type BankFormValues } from '../lib/bank-form-rules.ts';
import './payments.css';

/**
 * /my/payment/bank-add: bind a USD account in the verified name. The country
 * decides the number field (IBAN where the country uses it, else the account number); every field
 * is checked on the page with the contract's rules, then the security check (BANK_ACCOUNT_ADD)
 * sends it; a refusal naming a field is shown on that field. Back to the list when done.
 */
export function AddBankPage() {
  const { t, i18n } = useTranslation('payments');
  const locale = toLocale(i18n.language);
  const navigate = useNavigate();
  const client = useQueryClient();
  const [form] = Form.useForm<BankFormValues>();
  // A rule of the account (holder, duplicate, 175): back to the form, the message on its field.
  const addAccount = useSecuredAction({
    endpoint: paymentsEndpoints.addBankAccount,
    refusalsShownOn: 'form',
    form,
    fieldOf: (field) => ((BANK_FORM_FIELDS as readonly string[]).includes(field) ? field : undefined),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: bankAccountsKey });
      void navigate(pathTo('PaymentBank'));
    },
  });
  const formError = addAccount.error;
  const accounts = useBankAccounts();
  const countries = useCountries();
  const self = useSelf();
  const verifiedName = self.data?.identity.basic ?? null;
  const country = Form.useWatch('country', form);
  const usesIban = typeof country === 'string' && countryUsesIban(country);
  const gate = kycGateOf(accounts.error);
  const isFull = (accounts.data?.length ?? 0) >= BANK_ACCOUNT_LIMIT;
  const rule = (field: BankFormField) => bankFieldRule(field, locale, verifiedName);
  const required = { required: true, message: validationMessage('validation.required', locale) };

  const countryOptions = useMemo(
    () =>
      (countries.data ?? [])
        .filter((item) => isBankCountry(item.code))
        .map((item) => ({
          value: item.code,
          label: `${locale === 'zh-HK' ? item.nameZh : item.nameEn} (${item.code})`,
        })),
    [countries.data, locale],
  );

  const submit = (values: BankFormValues) => {
    addAccount.run({
      body: {
        country: values.country ?? '',
        accountHolder: values.accountHolder ?? '',
        bankName: values.bankName ?? '',
        swiftBic: values.swiftBic ?? '',
        currency: BANK_ACCOUNT_CURRENCY,
        ...(usesIban ? { iban: values.iban ?? '' } : { accountNumber: values.accountNumber ?? '' }),
      },
    });
  };

  const body = () => {
    if (gate) return <KycGate gate={gate} />;
    if (accounts.isLoading || self.isLoading) return <Skeleton active />;
    return (
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{
          accountHolder: verifiedName ? `${verifiedName.firstName} ${verifiedName.lastName}`.trim() : '',
        }}
        onFinish={submit}
        data-testid="add-bank-form"
      >
        {isFull && (
          <Alert
            className="payments-card__notice"
            type="warning"
            showIcon
            title={t('list.full', { limit: BANK_ACCOUNT_LIMIT })}
          />
        )}
        {formError && (
          <Alert
            className="payments-card__notice"
            type="error"
            showIcon
            title={formError}
            data-testid="add-bank-error"
          />
        )}
        <Form.Item name="country" label={t('field.country')} rules={[required, rule('country')]}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            options={countryOptions}
            loading={countries.isLoading}
            placeholder={t('form.countryPlaceholder')}
            data-testid="bank-country"
            onChange={() => {
              addAccount.clearErrors();
              // The number field changes with the country; what was typed for the other one is dropped.
              form.setFieldsValue({ iban: undefined, accountNumber: undefined });
              if (form.isFieldTouched('swiftBic')) void form.validateFields(['swiftBic']);
            }}
          />
        </Form.Item>
        <Form.Item
          name="accountHolder"
          label={t('field.accountHolder')}
          extra={verifiedName ? t('form.holderHelp') : undefined}
          rules={[required, rule('accountHolder')]}
        >
          <Input maxLength={70} autoComplete="name" data-testid="bank-holder" />
        </Form.Item>
        <Form.Item name="bankName" label={t('field.bankName')} rules={[required, rule('bankName')]}>
          <Input maxLength={100} autoComplete="off" data-testid="bank-name" />
        </Form.Item>
        <Form.Item
          name="swiftBic"
          label={t('field.swiftBic')}
          extra={t('form.swiftBicHelp')}
          rules={[required, rule('swiftBic')]}
        >
          <Input maxLength={40} autoComplete="off" placeholder="HSBCHKHHHKH" data-testid="bank-swift" />
        </Form.Item>
        {usesIban ? (
          <Form.Item
            key="iban"
            name="iban"
            label={t('field.iban')}
            extra={t('form.ibanHelp')}
            rules={[required, rule('iban')]}
          >
            <Input maxLength={50} autoComplete="off" placeholder={`${country} …`} data-testid="bank-iban" />
          </Form.Item>
        ) : (
          <Form.Item
            key="accountNumber"
            name="accountNumber"
            label={t('field.accountNumber')}
            extra={country ? t('form.accountNumberHelp') : t('form.chooseCountryFirst')}
            rules={[required, rule('accountNumber')]}
          >
            <Input maxLength={50} autoComplete="off" inputMode="text" data-testid="bank-account-number" />
          </Form.Item>
        )}
        <Form.Item label={t('field.currency')} extra={t('form.currencyHelp')} htmlFor="bank-currency">
          <Input id="bank-currency" value={BANK_ACCOUNT_CURRENCY} disabled data-testid="bank-currency" />
        </Form.Item>
        <Space wrap>
          <Button type="primary" htmlType="submit" disabled={isFull} data-testid="add-bank-submit">
            {t('form.submit')}
          </Button>
          <Button onClick={() => void navigate(pathTo('PaymentBank'))}>{t('form.back')}</Button>
        </Space>
      </Form>
    );
  };

  return (
    <RequireUser>
      <PageFrame subtitle={t('form.subtitle')}>
        <div className="content-card payments-card payments-card--form" data-testid="add-bank">
          {body()}
        </div>
      </PageFrame>
    </RequireUser>
  );
}
