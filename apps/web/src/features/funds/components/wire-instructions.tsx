import type { FundReceivingAccount } from '@meridian/contracts/funds';
import { Alert, Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * Where to send a USD subscription's wire: Meridian's receiving
 * account and, once the order exists, its unique reference, which the wire must quote; the order
 * stays Pending until an operator records the wire.
 */
export function WireInstructions({ account, reference }: { account: FundReceivingAccount; reference?: string }) {
  const { t } = useTranslation('funds');
  return (
    <>
      <Descriptions size="small" column={1} bordered data-testid="wire-instructions">
        <Descriptions.Item label={t('wire.accountName')}>{account.accountName}</Descriptions.Item>
        <Descriptions.Item label={t('wire.bankName')}>{account.bankName}</Descriptions.Item>
        <Descriptions.Item label={t('wire.accountNumber')}>
          <Typography.Text copyable>{account.accountNumber}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('wire.swift')}>
          <Typography.Text copyable>{account.swift}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('wire.bankAddress')}>{account.bankAddress}</Descriptions.Item>
        <Descriptions.Item label={t('wire.currency')}>{account.currency}</Descriptions.Item>
        {reference && (
          <Descriptions.Item label={t('wire.reference')}>
            <Typography.Text strong copyable data-testid="wire-reference">
              {reference}
            </Typography.Text>
          </Descriptions.Item>
        )}
      </Descriptions>
      <Alert
        type="info"
        showIcon
        style={{ marginTop: 12 }}
        message={reference ? t('wire.quoteReference') : t('wire.referenceLater')}
      />
    </>
  );
}
