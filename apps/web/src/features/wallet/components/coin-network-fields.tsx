import type { WalletCoin } from '@meridian/contracts/wallet';
import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';

export interface CoinNetworkFieldsProps {
  coins: WalletCoin[];
  coin: string;
  network: string | undefined;
  onCoinChange: (coin: string) => void;
  onNetworkChange: (network: string) => void;
  /** Only networks open for this direction are offered (unmatched networks are filtered out). */
  direction: 'deposit' | 'withdraw';
}

/** The coin and network pickers of the deposit and withdraw forms. */
export function CoinNetworkFields({
  coins,
  coin,
  network,
  onCoinChange,
  onNetworkChange,
  direction,
}: CoinNetworkFieldsProps) {
  const { t } = useTranslation(['wallet', 'market']);
  // One name per coin and language, the market table's (market:coins); the server's English name
  // only for a coin the locale files do not know, and no name at all where it would repeat the code.
  const coinLabel = (c: WalletCoin) => {
    const name = t(`market:coins.${c.coinCode}`, { defaultValue: c.fullName });
    return name === c.coinCode ? c.coinCode : `${c.coinCode} · ${name}`;
  };
  const nets = (coins.find((c) => c.coinCode === coin)?.nets ?? []).filter((n) =>
    direction === 'deposit' ? n.isDepositEnabled : n.isWithdrawEnabled,
  );
  return (
    <>
      {/* Items without a `name` link label and select through htmlFor/id (axe: label). */}
      <Form.Item label={t('wallet:form.coin')} required htmlFor={`${direction}-coin`}>
        <Select
          id={`${direction}-coin`}
          value={coin}
          onChange={onCoinChange}
          data-testid="coin-select"
          options={coins.map((c) => ({ value: c.coinCode, label: coinLabel(c) }))}
        />
      </Form.Item>
      <Form.Item
        label={t('wallet:form.network')}
        required
        htmlFor={`${direction}-network`}
        validateStatus={nets.length === 0 ? 'error' : undefined}
        help={nets.length === 0 ? t('wallet:form.noNetwork') : undefined}
      >
        <Select
          id={`${direction}-network`}
          value={network}
          placeholder={t('wallet:form.selectNetwork')}
          onChange={onNetworkChange}
          data-testid="network-select"
          options={nets.map((n) => ({ value: n.network, label: n.network }))}
        />
      </Form.Item>
    </>
  );
}
