import { Tooltip, Typography } from 'antd';
import { shortenMiddle } from '../lib/shorten-middle.ts';

/**
 * A chain address in a history table: shortened in the middle so the column stays narrow, the whole
 * address in a tooltip, and a copy button that copies all of it.
 */
export function AddressText({ address }: { address: string }) {
  if (address === '') return null;
  return (
    <Typography.Text copyable={{ text: address }} style={{ whiteSpace: 'nowrap' }}>
      <Tooltip title={address}>
        <span data-testid="record-address">{shortenMiddle(address)}</span>
      </Tooltip>
    </Typography.Text>
  );
}
