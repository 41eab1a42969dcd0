import { z } from 'zod';
import { INSTANT_LENGTH_MAX, boundedList, instantText } from '../limits.ts';
import { assetCodeSchema } from '../money.ts';
import { pageQuerySchema, pageSchema } from '../pagination.ts';
import { sensitiveFactorsSchema } from '../security.ts';
import { transferTypeSchema, addressLabelSchema } from './accounts.ts';

/**
 * Coin actions of the wallet record: deposits, withdrawals, and the two legs of a swap —
 * `exchange_out` (the coin given) and `exchange_in` (the coin received).
 */
export const walletRecordActionSchema = z.enum(['deposit', 'withdraw', 'exchange_in', 'exchange_out']);
export type WalletRecordAction = z.infer<typeof walletRecordActionSchema>;

/**
 * A deposit, withdrawal or swap leg in the history. Swap legs have no
 * network, address, fee or hash: `network` and `address` are empty, `fee` is 0, `type` INTERNAL,
 * `status` 2 (done) and `id` is the ledger entry's id.
 */
export const walletRecordSchema = z.object({
  id: z.string(),
  action: walletRecordActionSchema,
  coinCode: assetCodeSchema,
  network: z.string(),
  address: z.string(),
  amount: z.string(),
  fee: z.string(),
  type: transferTypeSchema,
  /** Withdrawals: 0–4. Deposits: 0 pending, 2 credited. */
  status: z.number().int(),
  txHash: z.string().nullable(),
  confirmations: z.number().int().nullable(),
  /** Deposits: the confirmations needed before it is credited (the N of "k of N"); absent or null otherwise. */
  confirmationsRequired: z.number().int().nullable().optional(),
  createTime: z.string(),
});
export type WalletRecord = z.infer<typeof walletRecordSchema>;

/** `GET wallet/record`: history with its filters (coin, createTime range, status, type), paged. */
export const walletRecordQuerySchema = pageQuerySchema.extend({
  action: walletRecordActionSchema,
  coin: assetCodeSchema.optional(),
  /** Two ISO instants [from, to]; repeated query parameter. */
  createTime: z
    .union([instantText(), boundedList(instantText(), 2)])
    .transform((value) => (Array.isArray(value) ? value : [value]))
    .pipe(
      z.tuple([
        z.iso.datetime({ offset: true }).max(INSTANT_LENGTH_MAX),
        z.iso.datetime({ offset: true }).max(INSTANT_LENGTH_MAX),
      ]),
    )
    .optional(),
  status: z.coerce.number().int().min(0).max(4).optional(),
  type: transferTypeSchema.optional(),
});
export type WalletRecordQuery = z.infer<typeof walletRecordQuerySchema>;
export const walletRecordPageSchema = pageSchema(walletRecordSchema);

/** A saved withdrawal address. */
export const addressBookEntrySchema = z.object({
  id: z.number().int(),
  label: z.string(),
  network: z.string(),
  address: z.string(),
  createTime: z.string(),
  /** In whitelist mode, when it becomes usable. */
  usableAt: z.string(),
});
export type AddressBookEntry = z.infer<typeof addressBookEntrySchema>;
export const addressBookListSchema = z.array(addressBookEntrySchema);
/** `POST wallet/addressbook` body (WITHDRAW_ADDRESS_ADD security check). */
export const addressBookAddBodySchema = sensitiveFactorsSchema.extend({
  label: addressLabelSchema,
  network: z.string().min(1, { error: 'validation.networkRequired' }).max(32),
  address: z.string().trim().min(1, { error: 'validation.withdrawAddressRequired' }).max(128),
});
export const idParamSchema = z.object({ id: z.coerce.number().int().positive() });
