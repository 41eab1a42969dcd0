import type { WalletRecord } from '@meridian/contracts/wallet';
import { Button, Descriptions, Result, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../../config/paths.ts';
import { StatusTag } from './status-tag.tsx';
import { money } from '../../../lib/money.ts';

export interface WithdrawResultProps {
  /** The withdrawal as `POST wallet/withdraw` answered it (decimal strings of the coin). */
  record: WalletRecord;
  /** Back to an empty form for another withdrawal. */
  onAgain: () => void;
}

/**
 * What a withdrawal made, in place of the form, as the swap's result: the amount,
 * the fee, the network, the whole address, the type and status, and a link to the record in the
 * withdrawal history.
 */
export function WithdrawResult({ record, onAgain }: WithdrawResultProps) {
  const { t } = useTranslation('wallet');
  const ref = useRef<HTMLDivElement>(null);
  // The result is shorter than the form: on a phone the page stayed scrolled below its top. A block
  // body: Chromium's scrollIntoView returns a promise, which React would take for a cleanup function.
  useEffect(() => {
    ref.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  const coin = record.coinCode;
  return (
    <div ref={ref} data-testid="withdraw-result">
      <Result
        status="success"
        title={t('result.title')}
        subTitle={t(record.type === 'INTERNAL' ? 'result.subtitleInternal' : 'result.subtitleOuter')}
        style={{ paddingInline: 0 }}
      />
      <Descriptions
        size="small"
        column={1}
        bordered
        styles={{ label: { whiteSpace: 'nowrap' } }}
        style={{ marginBottom: 24 }}
      >
        <Descriptions.Item label={t('history.amount')}>
          <span data-testid="withdraw-result-amount">{money(record.amount, coin)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('history.fee')}>
          <span data-testid="withdraw-result-fee">{money(record.fee, coin)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('history.network')}>
          <span data-testid="withdraw-result-network">{record.network}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('history.address')}>
          <Typography.Text
            copyable={{ text: record.address }}
            style={{ wordBreak: 'break-all' }}
            data-testid="withdraw-result-address"
          >
            {record.address}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('history.type')}>{t(`history.${record.type}`)}</Descriptions.Item>
        <Descriptions.Item label={t('history.status')}>
          <StatusTag status={record.status} action="withdraw" />
        </Descriptions.Item>
      </Descriptions>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, justifyContent: 'center', alignItems: 'center' }}>
        <Button type="primary" onClick={onAgain} data-testid="withdraw-again">
          {t('result.again')}
        </Button>
        <Link to={pathTo('WithdrawHistory')} data-testid="withdraw-history-link">
          <Button>{t('result.history')}</Button>
        </Link>
      </div>
    </div>
  );
}
