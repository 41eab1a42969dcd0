/**
 * Card contracts (`/product/fiscard` and FiscardAccount, the PIN,
 * gating: cards need basic verification, declined payment reasons, card constants; docs/cards.md).
 *
 * A card is issued by the issuer processor (the built-in sandbox by default, docs/architecture.md "Outside world"); Meridian
 * keeps the processor's token, the first 4 and last 4 digits and the expiry — never a full PAN or a
 * CVV (PCI DSS 3.3.1.2, 3.4.1). Each card has its own balance (a ledger account in the card's
 * currency), topped up from a stablecoin. Amounts on the wire are decimal strings with the
 * currency's precision (USD/EUR/GBP 2, JPY 0; USDT/USDC/USDE 6).
 */
export * from './cards/constants.ts';
export * from './cards/cards.ts';
export * from './cards/transactions.ts';
export * from './cards/processor.ts';
