import type { WalletCoin } from '@meridian/contracts/wallet';
import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';

export interface CoinNetworkFieldsProps {
  coins: WalletCoin[];
  coin: string;
  network: string | undefined;
  onCoinChange: (coin: string) => void;
  onNetworkChange: (network: string) => void;
  /** Only networks open for this direction are offered (spec §5: unmatched networks are filtered out). */
  direction: 'deposit' | 'withdraw';
}

/** The coin and network pickers of the deposit and withdraw forms. */
export function CoinNetworkFields({ coins, coin, network, onCoinChange, onNetworkChange, direction }: CoinNetworkFieldsProps) {
  const { t } = useTranslation('wallet');
  const nets = (coins.find((c) => c.coinCode === coin)?.nets ?? []).filter((n) => (direction === 'deposit' ? n.isDepositEnabled : n.isWithdrawEnabled));
  return (
    <>
      <Form.Item label={t('form.coin')} required>
        <Select
          value={coin}
          onChange={onCoinChange}
          data-testid="coin-select"
          options={coins.map((c) => ({ value: c.coinCode, label: `${c.coinCode} · ${c.fullName}` }))}
        />
      </Form.Item>
      <Form.Item label={t('form.network')} required validateStatus={nets.length === 0 ? 'error' : undefined} help={nets.length === 0 ? t('form.noNetwork') : undefined}>
        <Select
          value={network}
          placeholder={t('form.selectNetwork')}
          onChange={onNetworkChange}
          data-testid="network-select"
          options={nets.map((n) => ({ value: n.network, label: n.network }))}
        />
      </Form.Item>
    </>
  );
}
