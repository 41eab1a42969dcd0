import { percentHundredths } from '@meridian/contracts/kyc';

/** A beneficial owner as the company form holds it (the share a percent kept as text). */
export interface OwnerValues {
  name?: string;
  idNumber?: string;
  sharePercent?: string;
}

/**
 * Whether the owners' shares add up to more than 100 % (the server refuses it at commit
 * with `validation.sharesTotal`). Shares are compared in hundredths of a percent, never as floats;
 * shares that are not yet well formed count as 0.
 */
export function sharesExceedWhole(owners: readonly (OwnerValues | undefined)[]): boolean {
  const total = owners.reduce((sum, owner) => {
    const share = owner?.sharePercent ?? '';
    return sum + (/^\d{1,3}(\.\d{1,2})?$/.test(share) ? percentHundredths(share) : 0);
  }, 0);
  return total > 100 * 100;
}
