import { type AssetCode, isAssetCode, toDecimalString } from '@meridian/contracts/money';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { nullableArrayLiteral, pgArrayLiteral } from '../../platform/db/pg-array.ts';
import { selectInColumnOrder } from '../../platform/db/unnest.ts';
import type { Tx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import type { AddressScreeningProvider } from '../../platform/screening/address-screening.ts';
import { ENTRIES_PER_BATCH_MAX, postEntries } from '../ledger/ledger.service.ts';
import { type EntryInput, platformAccount, transfer, userAccount } from '../ledger/ledger.types.ts';
import { chainOf, normalizeAddress } from './wallet.addresses.ts';
import { freezeDepositInTx } from './wallet.internal.ts';
import { recordAlert } from './wallet.screening.ts';
import { coinNetworks, coins, depositAddresses, deposits, screeningAlerts } from './wallet.tables.ts';
import type { ObservedDeposit, PendingConfirmation, RecordedDeposit } from './wallet.service.ts';

type DepositRow = typeof deposits.$inferSelect;

/** Rows per set-based upsert (one array parameter per column: bounds each statement's size). */
const ROWS_PER_STATEMENT = 1000;

/** What the batched deposit path needs of the wallet. */
export interface DepositBatchDeps {
  now: () => Date;
  screening?: AddressScreeningProvider | undefined;
  log: { warn(detail: object, message: string): void };
}

const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size));

/**
 * `recordDepositInTx` for many observed transfers at once, with the same outcome as calling it for
 * each in order (docs/chain.md "Batched credit"): refused as a whole (DEPOSIT_UNAVAILABLE,
 * UNKNOWN_DEPOSIT_ADDRESS, CONFLICT) when any one would be; else each recorded once per
 * (network, txHash, outputIndex) with its confirmations kept at the highest reported, its source
 * screened, and those confirmed or final credited exactly once (the status claim PENDING → CREDITED
 * and the entry's idempotency key `deposit:<id>:credit`, as the one-at-a-time path), or frozen when
 * the source is on a sanctions list. In a fixed number of statements per block: one look-up of the
 * networks, one of the owners, one upsert per 1,000 transfers, one status claim, one ledger batch per
 * 64 credits and one update of their entry ids — instead of about 11 per deposit.
 * Inputs must have distinct (network, txHash, outputIndex). Results are in input order.
 */
export async function recordDepositsInTx(
  tx: Tx,
  deps: DepositBatchDeps,
  inputs: readonly ObservedDeposit[],
): Promise<RecordedDeposit[]> {
  if (inputs.length === 0) return [];
  const required = await requiredConfirmationsOf(tx, inputs);
  // Normalised once per input: an EVM address's checksum is a Keccak hash.
  const addresses = inputs.map(addressOf);
  const owners = await ownersOf(tx, inputs, addresses);
  const now = deps.now();
  const values = inputs.map((input, index) => ({
    userId: owners.get(addresses[index]!)!,
    coinCode: input.coin,
    network: input.network,
    address: addresses[index]!,
    txHash: input.txHash,
    outputIndex: input.outputIndex,
    amountMinor: input.amountMinor,
    confirmations: input.confirmations,
    confirmationsRequired: input.confirmationsRequired ?? required.get(`${input.coin}:${input.network}`)!,
    fromAddress: input.fromAddress?.trim() ?? null,
  }));
  const rows: DepositRow[] = [];
  for (const part of chunks(values, ROWS_PER_STATEMENT)) rows.push(...(await upsertDeposits(tx, part, now)));
  const byKey = new Map(rows.map((row) => [`${row.network}:${row.txHash}:${row.outputIndex}`, row]));
  const recorded = values.map((value) => byKey.get(`${value.network}:${value.txHash}:${value.outputIndex}`));
  // A report of the same output with another owner, coin or amount is refused, not merged.
  if (recorded.some((row) => row === undefined)) throw new DomainError('CONFLICT');
  await screenSources(tx, deps, recorded as DepositRow[]);
  const due = (recorded as DepositRow[]).filter(
    (row, index) =>
      row.status === 'PENDING' &&
      (inputs[index]!.isFinal === true || row.confirmations >= values[index]!.confirmationsRequired),
  );
  const settled = await creditOrFreezeAll(tx, deps, due);
  return (recorded as DepositRow[]).map((row) => {
    const final = settled.get(row.id) ?? row;
    const coin = row.coinCode as AssetCode;
    return {
      row: final,
      userId: row.userId,
      coinCode: coin,
      amount: toDecimalString(row.amountMinor, coin),
      isCreditedNow: final.status === 'CREDITED' && row.status === 'PENDING',
    };
  });
}

/**
 * The chain watcher's confirmation pass, set-based (docs/chain.md "Batched credit"): raise the
 * confirmations of the PENDING deposits `items` in ONE statement (never lowered), then credit — or
 * freeze, when their source has an alert that is not released — those now due (count reached or
 * final), exactly once, as `recordDepositsInTx` does (same status claim, same entry key). Instead of
 * upserting the known rows again, no look-up of owners or networks.
 * @returns those of `items` no longer PENDING after it (credited or frozen now, or before), in
 *   `items` order; `isCreditedNow` for those credited by this call.
 */
export async function confirmDepositsInTx(
  tx: Tx,
  deps: DepositBatchDeps,
  items: readonly PendingConfirmation[],
): Promise<RecordedDeposit[]> {
  if (items.length === 0) return [];
  const ids = pgArrayLiteral(items.map((item) => item.depositId));
  const counts = pgArrayLiteral(items.map((item) => item.confirmations));
  // Only id, status and count come back: most of a block's pending deposits are not due yet.
  const raised = await tx
    .update(deposits)
    .set({
      confirmations: sql`CASE WHEN ${deposits.status} = 'PENDING' THEN GREATEST(${deposits.confirmations}, x.confirmations) ELSE ${deposits.confirmations} END`,
    })
    .from(sql`unnest(${ids}::bigint[], ${counts}::int[]) AS x(id, confirmations)`)
    .where(sql`${deposits.id} = x.id`)
    .returning({ id: deposits.id, status: deposits.status, confirmations: deposits.confirmations });
  const isDue = (item: PendingConfirmation, row: { status: string; confirmations: number }) =>
    row.status === 'PENDING' && item.mayCredit && (item.isFinal || row.confirmations >= item.confirmationsRequired);
  const itemOf = new Map(items.map((item) => [item.depositId, item]));
  const wanted = raised.filter((row) => row.status !== 'PENDING' || isDue(itemOf.get(row.id)!, row));
  const rows =
    wanted.length === 0
      ? []
      : await tx
          .select()
          .from(deposits)
          .where(sql`${deposits.id} = ANY(${pgArrayLiteral(wanted.map((row) => row.id))}::bigint[])`);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const found = items.flatMap((item) => {
    const row = byId.get(item.depositId);
    return row ? [{ item, row }] : [];
  });
  const due = found.filter(({ item, row }) => isDue(item, row)).map(({ row }) => row);
  const settled = await creditOrFreezeAll(tx, deps, due);
  return found.flatMap(({ row }) => {
    const final = settled.get(row.id) ?? row;
    if (final.status === 'PENDING') return [];
    const coin = row.coinCode as AssetCode;
    return [
      {
        row: final,
        userId: row.userId,
        coinCode: coin,
        amount: toDecimalString(row.amountMinor, coin),
        isCreditedNow: settled.get(row.id)?.status === 'CREDITED',
      },
    ];
  });
}

function addressOf(input: ObservedDeposit): string {
  return normalizeAddress(input.network, input.address) ?? input.address;
}

/** Each (coin, network) pair's confirmations, in one statement. @throws DEPOSIT_UNAVAILABLE as the single path. */
async function requiredConfirmationsOf(tx: Tx, inputs: readonly ObservedDeposit[]): Promise<Map<string, number>> {
  const coinCodes = [...new Set(inputs.map((input) => input.coin))];
  const rows = await tx
    .select({ coin: coinNetworks.coinCode, network: coinNetworks.network, net: coinNetworks })
    .from(coinNetworks)
    .innerJoin(coins, eq(coins.coinCode, coinNetworks.coinCode))
    .where(and(inArray(coinNetworks.coinCode, coinCodes), eq(coins.isEnabled, true)));
  const enabled = new Map(
    rows.filter((row) => row.net.isDepositEnabled).map((row) => [`${row.coin}:${row.network}`, row.net]),
  );
  for (const input of inputs) {
    if (!enabled.has(`${input.coin}:${input.network}`) || !chainOf(input.network))
      throw new DomainError('DEPOSIT_UNAVAILABLE');
  }
  return new Map([...enabled].map(([key, net]) => [key, net.confirmationsRequired]));
}

/**
 * The owner of each deposit address (`addresses[i]` is input i's, normalised), in one statement per
 * chain. @throws UNKNOWN_DEPOSIT_ADDRESS as the single path.
 */
async function ownersOf(
  tx: Tx,
  inputs: readonly ObservedDeposit[],
  addresses: readonly string[],
): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  const byChain = new Map<string, Set<string>>();
  for (const [index, input] of inputs.entries()) {
    const chain = chainOf(input.network)!;
    byChain.set(chain, (byChain.get(chain) ?? new Set()).add(addresses[index]!));
  }
  for (const [chain, wanted] of byChain) {
    const rows = await tx
      .select({ address: depositAddresses.address, userId: depositAddresses.userId })
      .from(depositAddresses)
      .where(
        and(
          eq(depositAddresses.chain, chain as never),
          sql`${depositAddresses.address} = ANY(${pgArrayLiteral([...wanted])}::text[])`,
        ),
      );
    for (const row of rows) owners.set(row.address, row.userId);
  }
  if (addresses.some((address) => !owners.has(address))) throw new DomainError('UNKNOWN_DEPOSIT_ADDRESS');
  return owners;
}

/** One observed transfer as the upsert writes it (OUTER, PENDING, created now). */
interface DepositValues {
  userId: string;
  coinCode: string;
  network: string;
  address: string;
  txHash: string;
  outputIndex: number;
  amountMinor: bigint;
  confirmations: number;
  confirmationsRequired: number;
  fromAddress: string | null;
}

/**
 * The single path's upsert, many rows at once: a row is answered unless it conflicts with another
 * owner, coin or amount. One INSERT … SELECT over `unnest` (one array parameter per column, rows in
 * input order), so its size does not grow the statement's text or parameters.
 */
function upsertDeposits(tx: Tx, values: readonly DepositValues[], now: Date): Promise<DepositRow[]> {
  const column = (pick: (value: DepositValues) => string | number | bigint | null) =>
    nullableArrayLiteral(values.map(pick));
  const select = selectInColumnOrder(
    deposits,
    {
      id: sql`nextval(pg_get_serial_sequence('deposits', 'id'))`,
      userId: sql`x.user_id`,
      coinCode: sql`x.coin_code`,
      network: sql`x.network`,
      address: sql`x.address`,
      txHash: sql`x.tx_hash`,
      outputIndex: sql`x.output_index`,
      amountMinor: sql`x.amount_minor`,
      confirmations: sql`x.confirmations`,
      confirmationsRequired: sql`x.confirmations_required`,
      type: sql`'OUTER'`,
      status: sql`'PENDING'`,
      fromAddress: sql`x.from_address`,
      entryId: sql`NULL::bigint`,
      createdAt: sql`${now.toISOString()}::timestamptz`,
      creditedAt: sql`NULL::timestamptz`,
    },
    sql`FROM unnest(${column((v) => v.userId)}::uuid[], ${column((v) => v.coinCode)}::text[], ${column((v) => v.network)}::text[], ${column((v) => v.address)}::text[], ${column((v) => v.txHash)}::text[], ${column((v) => v.outputIndex)}::int[], ${column((v) => v.amountMinor)}::numeric[], ${column((v) => v.confirmations)}::int[], ${column((v) => v.confirmationsRequired)}::int[], ${column((v) => v.fromAddress)}::text[]) WITH ORDINALITY AS x(user_id, coin_code, network, address, tx_hash, output_index, amount_minor, confirmations, confirmations_required, from_address, ord) ORDER BY x.ord`,
  );
  return tx
    .insert(deposits)
    .select(select)
    .onConflictDoUpdate({
      target: [deposits.network, deposits.txHash, deposits.outputIndex],
      set: {
        confirmations: sql`GREATEST(${deposits.confirmations}, excluded.confirmations)`,
        fromAddress: sql`COALESCE(${deposits.fromAddress}, excluded.from_address)`,
      },
      setWhere: sql`${deposits.userId} = excluded.user_id AND ${deposits.coinCode} = excluded.coin_code AND ${deposits.amountMinor} = excluded.amount_minor`,
    })
    .returning();
}

/** Screen each row's source (in memory; the bundled list) and record an alert for a hit, as the single path. */
async function screenSources(tx: Tx, deps: DepositBatchDeps, rows: DepositRow[]): Promise<void> {
  if (!deps.screening) return;
  for (const row of rows) {
    if (!row.fromAddress) continue;
    const screening = await deps.screening.screen(row.network, row.fromAddress);
    if (screening.status !== 'hit') continue;
    const alertId = await recordAlert(tx, {
      userId: row.userId,
      kind: 'deposit',
      network: row.network,
      address: row.fromAddress,
      listName: screening.listName,
      referenceId: String(row.id),
    });
    if (alertId !== undefined)
      deps.log.warn(
        { alert: 'deposit-source-screening-hit', userId: row.userId, depositId: row.id, listName: screening.listName },
        'screening alert: deposit from a sanctioned source frozen for review',
      );
  }
}

/**
 * Credit the confirmed rows `due` (claimed PENDING → CREDITED in one statement, then one DEPOSIT entry
 * hot wallet → user each, posted 64 to a statement, then their entry ids in one statement), or freeze
 * those whose source has an alert that is not released (one at a time: rare). The rows as they stand after.
 */
async function creditOrFreezeAll(tx: Tx, deps: DepositBatchDeps, due: DepositRow[]): Promise<Map<number, DepositRow>> {
  const settled = new Map<number, DepositRow>();
  if (due.length === 0) return settled;
  const alerts = await tx
    .select({ referenceId: screeningAlerts.referenceId, status: screeningAlerts.status })
    .from(screeningAlerts)
    .where(
      and(
        eq(screeningAlerts.kind, 'deposit'),
        sql`${screeningAlerts.referenceId} = ANY(${pgArrayLiteral(due.map((row) => String(row.id)))}::text[])`,
      ),
    );
  const held = new Set(alerts.filter((alert) => alert.status !== 'released').map((alert) => Number(alert.referenceId)));
  for (const row of due.filter((candidate) => held.has(candidate.id)))
    settled.set(row.id, await freezeDepositInTx(tx, row));
  const toCredit = due.filter((row) => !held.has(row.id)).map((row) => row.id);
  if (toCredit.length === 0) return settled;
  const creditedAt = deps.now();
  // Only the ids come back: the rows are known (`due`), and decoding 1,000 whole rows again costs.
  const claimedIds = await tx
    .update(deposits)
    .set({ status: 'CREDITED', creditedAt })
    .where(and(sql`${deposits.id} = ANY(${pgArrayLiteral(toCredit)}::bigint[])`, eq(deposits.status, 'PENDING')))
    .returning({ id: deposits.id });
  const isClaimed = new Set(claimedIds.map((row) => row.id));
  const claimed = due
    .filter((row) => isClaimed.has(row.id))
    .map((row): DepositRow => ({ ...row, status: 'CREDITED', creditedAt }));
  const entryIds = new Map<number, number>();
  for (const part of chunks(claimed, ENTRIES_PER_BATCH_MAX)) {
    const results = await postEntries(tx, part.map(creditEntryOf));
    for (const [index, result] of results.entries()) {
      if (result instanceof DomainError) throw result;
      entryIds.set(part[index]!.id, result.entry.id);
    }
  }
  if (claimed.length > 0) {
    const ids = pgArrayLiteral(claimed.map((row) => row.id));
    const entries = pgArrayLiteral(claimed.map((row) => entryIds.get(row.id)!));
    await tx.execute(
      sql`UPDATE deposits SET entry_id = v.entry_id FROM unnest(${ids}::bigint[], ${entries}::bigint[]) AS v(id, entry_id) WHERE deposits.id = v.id`,
    );
  }
  for (const row of claimed) settled.set(row.id, { ...row, entryId: entryIds.get(row.id)! });
  return settled;
}

/** The DEPOSIT entry of a claimed row: hot wallet → the user's available balance (the single path's key). */
function creditEntryOf(row: DepositRow): EntryInput {
  const asset = assetOf(row);
  return {
    kind: 'DEPOSIT',
    reference: `deposit:${row.id}`,
    idempotencyKey: `deposit:${row.id}:credit`,
    postings: transfer(
      platformAccount('PLATFORM_HOT_WALLET', asset),
      userAccount(row.userId, 'USER_AVAILABLE', asset),
      row.amountMinor,
    ),
    metadata: { network: row.network, txHash: row.txHash, outputIndex: String(row.outputIndex) },
  };
}

function assetOf(row: DepositRow): AssetCode {
  if (!isAssetCode(row.coinCode)) throw new Error(`deposit ${row.id}: unknown asset ${row.coinCode}`);
  return row.coinCode;
}
