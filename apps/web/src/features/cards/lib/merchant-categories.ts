/**
 * Merchant category codes (ISO 18245) the spend-rules form offers by name; any other 4-digit code
 * can be typed. Labels are `mcc.<code>` in `cards.json`.
 */
export const COMMON_MCCS = [
  '7995',
  '6051',
  '4829',
  '5921',
  '5993',
  '7273',
  '5967',
  '5812',
  '5411',
  '5734',
  '4121',
  '7011',
  '4511',
] as const;
