/**
 * An account number or IBAN as the list shows it: an IBAN keeps its country and check digits and
 * its last 4 characters (`GB82 •••• 5432`), any other number its last 4 (`•••• 9001`); a number of
 * 4 characters or fewer is fully masked.
 */
export function maskAccountNumber(number: string, isIban: boolean): string {
  if (number.length <= 4) return '•'.repeat(number.length);
  const tail = number.slice(-4);
  return isIban && number.length > 8 ? `${number.slice(0, 4)} •••• ${tail}` : `•••• ${tail}`;
}
