import { ASSET_PRECISION, type AssetCode } from '@meridian/contracts/money';

/**
 * An on-chain amount (`raw` base units of a token with `decimals` decimals: wei for ETH) in minor
 * units of `asset` (its `ASSET_PRECISION`), and the part too small to be one minor unit (`dust`,
 * in base units), which stays in the hot wallet uncredited. ETH has 18 decimals on chain and 8 in
 * the ledger, so 1 minor unit is 10^10 wei; USDT and USDC have 6 in both.
 */
export function toMinorUnits(raw: bigint, decimals: number, asset: AssetCode): { minor: bigint; dust: bigint } {
  const precision = ASSET_PRECISION[asset];
  if (decimals >= precision) {
    const unit = 10n ** BigInt(decimals - precision);
    return { minor: raw / unit, dust: raw % unit };
  }
  return { minor: raw * 10n ** BigInt(precision - decimals), dust: 0n };
}
