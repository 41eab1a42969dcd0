/** Whether a decimal text of the API is zero ("0", "0.000000"). */
export function isZeroAmount(amount: string): boolean {
  return /^0(\.0+)?$/.test(amount);
}
