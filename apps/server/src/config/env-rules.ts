import ipaddr from 'ipaddr.js';
import { z } from 'zod';

/** The values of NODE_ENV. */
export type NodeEnv = 'development' | 'production' | 'test';

/** Levels of LOG_LEVEL (pino's). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** An empty variable counts as unset. */
export const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

/**
 * A per-coin setting `CODE=value,CODE=value` (coin codes in capitals), each value matching `valueRule`;
 * parsed to a record of code → value.
 */
export function coinMap(valueRule: RegExp, valueName: string) {
  return z
    .string()
    .regex(new RegExp(`^[A-Z0-9]{2,10}=[^,=]+(,[A-Z0-9]{2,10}=[^,=]+)*$`), { error: 'must be CODE=value,CODE=value' })
    .transform((text, context) => {
      const entries = text.split(',').map((pair) => pair.split('=') as [string, string]);
      for (const [code, value] of entries)
        if (!valueRule.test(value)) context.addIssue({ code: 'custom', message: `${code} must be ${valueName}` });
      return Object.fromEntries(entries);
    });
}

/** An IPv4/IPv6 address or a CIDR range (`10.0.0.0/8`), as ipaddr.js parses them. */
export function isIpOrCidr(text: string): boolean {
  if (ipaddr.isValid(text)) return true;
  try {
    ipaddr.parseCIDR(text);
    return true;
  } catch {
    return false;
  }
}
