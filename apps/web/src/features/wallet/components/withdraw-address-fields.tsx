import { Form, Input, Select } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAddressBook } from '../api/get-address-book.ts';

/**
 * The withdrawal's address field and, when the address book has entries on `network`, a select
 * that fills the address with one of them. Must sit inside the withdrawal's `<Form>`.
 */
export function WithdrawAddressFields({ network }: { network: string | undefined }) {
  const { t } = useTranslation('wallet');
  const form = Form.useFormInstance();
  const book = useAddressBook();
  const bookOptions = useMemo(
    () =>
      (book.data ?? [])
        .filter((entry) => entry.network === network)
        .map((entry) => ({ value: entry.address, label: `${entry.label} · ${entry.address}` })),
    [book.data, network],
  );
  return (
    <>
      <Form.Item
        label={t('withdraw.address')}
        name="address"
        rules={[{ required: true, whitespace: true, message: t('withdraw.addressRequired') }]}
      >
        <Input placeholder={t('withdraw.addressPlaceholder')} data-testid="withdraw-address" autoComplete="off" />
      </Form.Item>
      {bookOptions.length > 0 && (
        <Form.Item>
          <Select
            aria-label={t('withdraw.fromBook')}
            placeholder={t('withdraw.fromBook')}
            options={bookOptions}
            onChange={(value: string) => form.setFieldValue('address', value)}
            data-testid="withdraw-book"
          />
        </Form.Item>
      )}
    </>
  );
}
