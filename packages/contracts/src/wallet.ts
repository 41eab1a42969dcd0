/**
 * Wallet API contracts (wallet coin, network, balance, withdraw record, withdraw address;
 * withdraw status; amount rules and label; wallet/*, account/balance, coinlist). Amounts
 * are decimal strings in the coin's precision; the server parses them exactly.
 */
export * from './wallet/accounts.ts';
export * from './wallet/records.ts';
export * from './wallet/custody.ts';
export * from './wallet/endpoints.ts';
export * from './wallet/operators.ts';
