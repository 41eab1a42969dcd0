import type {
  CardFees,
  CardFxRates,
  CardSettingChange,
  CardSettingChangeKind,
  OpsCardSettings,
  UpdateCardIssuingBody,
  UpdateCardLimitsBody,
  UpdateCardTopUpBody,
} from '@meridian/contracts/card-settings';
import { cardFeesSchema, cardFxRatesSchema } from '@meridian/contracts/card-settings';
import { CARD_CURRENCIES, type CardCurrency } from '@meridian/contracts/cards';
import { parseAmountMinor, readAmountMinor } from '@meridian/contracts/money';
import Decimal from 'decimal.js';
import { eq } from 'drizzle-orm';
import type { ZodType } from 'zod';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { FieldError } from '../../platform/http/errors.ts';
import type { SettingProposal, SettingsOperator, SettingsWorkflow } from '../admin/admin.types.ts';
import {
  type CardSettingsRow,
  DEFAULT_LIMITS,
  DEFAULT_SETTINGS,
  isPromotionOn,
  money,
  readSettings,
  SETTINGS_ID,
} from './cards.internal.ts';
import { cardSettings } from './cards.tables.ts';

/** What an immediate change answers: the changed part before and after (for the audit log) and the whole view. */
export interface CardSettingsWrite {
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  settings: OpsCardSettings;
}

/** The two fees of the settings row as USDT decimal strings without trailing zeros ("10", "7.5"). */
function feesOf(row: Pick<CardSettingsRow, 'physicalFeeUsdtMinor' | 'virtualFeeUsdtMinor'>): CardFees {
  const text = (minor: bigint) => new Decimal(money(minor, 'USDT')).toFixed();
  return { physicalFeeUsdt: text(row.physicalFeeUsdtMinor), virtualFeeUsdt: text(row.virtualFeeUsdtMinor) };
}

/** The rate table's EUR, GBP and JPY per 1 USD as stored ("0.92", "150"). */
function ratesOf(row: Pick<CardSettingsRow, 'fxRates'>): CardFxRates {
  const rate = (currency: 'EUR' | 'GBP' | 'JPY') => row.fxRates[currency] ?? DEFAULT_SETTINGS.fxRates[currency]!;
  return { EUR: rate('EUR'), GBP: rate('GBP'), JPY: rate('JPY') };
}

/**
 * What a kind of risky change reads, compares, normalises and writes on the settings row: the one
 * place a new kind is described; `registerCardSettingKinds` hands it to the settings workflow.
 */
interface RiskyKind<T> {
  /** The current values of the row, in the proposal's shape. */
  read: (row: CardSettingsRow) => T;
  /** The proposed values as stored (decimal strings without trailing zeros). */
  normalise: (after: T) => T;
  /** Same values (so a stored "10" equals "10.000000"). */
  isSame: (a: T, b: T) => boolean;
  /** The columns of the settings row that set `after`. */
  set: (after: T, row: CardSettingsRow) => Partial<Omit<CardSettingsRow, 'id'>>;
  /** The current values in a 176 message. */
  describe: (current: T) => string;
}

const plain = (text: string) => new Decimal(text).toFixed();

const FEES: RiskyKind<CardFees> = {
  read: feesOf,
  normalise: (after) => ({
    physicalFeeUsdt: plain(after.physicalFeeUsdt),
    virtualFeeUsdt: plain(after.virtualFeeUsdt),
  }),
  isSame: (a, b) =>
    parseAmountMinor(a.physicalFeeUsdt, 'USDT') === parseAmountMinor(b.physicalFeeUsdt, 'USDT') &&
    parseAmountMinor(a.virtualFeeUsdt, 'USDT') === parseAmountMinor(b.virtualFeeUsdt, 'USDT'),
  set: (after) => ({
    physicalFeeUsdtMinor: parseAmountMinor(after.physicalFeeUsdt, 'USDT'),
    virtualFeeUsdtMinor: parseAmountMinor(after.virtualFeeUsdt, 'USDT'),
  }),
  describe: (current) => `${current.physicalFeeUsdt} / ${current.virtualFeeUsdt} USDT`,
};

const FX_RATES: RiskyKind<CardFxRates> = {
  read: ratesOf,
  // Stored without trailing zeros ("0.92", not "0.9200"), as the default table is written.
  normalise: (after) => ({ EUR: plain(after.EUR), GBP: plain(after.GBP), JPY: plain(after.JPY) }),
  isSame: (a, b) => (['EUR', 'GBP', 'JPY'] as const).every((currency) => new Decimal(a[currency]).eq(b[currency])),
  set: (after, row) => ({ fxRates: { ...row.fxRates, USD: '1', ...after } }),
  describe: (current) => `EUR ${current.EUR} / GBP ${current.GBP} / JPY ${current.JPY} per USD`,
};

/** The settings workflow's kind of each card proposal (`cards.<kind>`, one settings row: target key ''). */
const WORKFLOW_KIND = { fees: 'cards.fees', fxRates: 'cards.fxRates' } as const satisfies Record<
  CardSettingChangeKind,
  string
>;
const CARD_KINDS = Object.values(WORKFLOW_KIND);

function toChange(row: SettingProposal): CardSettingChange {
  return {
    id: row.id,
    kind: row.kind === WORKFLOW_KIND.fxRates ? 'fxRates' : 'fees',
    before: row.before,
    after: row.after,
    status: row.status,
    proposedBy: row.proposedByEmail,
    proposedAt: row.proposedAt.toISOString(),
    decidedBy: row.decidedByEmail,
    decidedAt: row.decidedAt?.toISOString() ?? null,
  } as CardSettingChange;
}

/** The row, seeded first when absent (the module seeds it at start; a test may come earlier), locked. */
async function lockedRow(tx: DbOrTx): Promise<CardSettingsRow> {
  await tx.insert(cardSettings).values(DEFAULT_SETTINGS).onConflictDoNothing();
  const [row] = await tx.select().from(cardSettings).where(eq(cardSettings.id, SETTINGS_ID)).for('update');
  return row!;
}

/** Register one risky kind of the settings row: admins propose and approve; applied under the row lock. */
function registerRiskyKind<T>(
  workflow: SettingsWorkflow,
  now: () => Date,
  name: string,
  kind: RiskyKind<T>,
  valuesSchema: ZodType<T>,
): void {
  workflow.register<T>({
    kind: name,
    valuesSchema,
    proposerRoles: ['admin'],
    approverRoles: ['admin'],
    lock: async (tx) => void (await lockedRow(tx)),
    read: async (tx) => kind.read(await readSettings(tx)),
    normalise: kind.normalise,
    isSame: kind.isSame,
    apply: async (tx, _key, after) => {
      const row = await lockedRow(tx);
      await tx
        .update(cardSettings)
        .set({ ...kind.set(after, row), updatedAt: now() })
        .where(eq(cardSettings.id, SETTINGS_ID));
    },
    describe: kind.describe,
  });
}

/**
 * Register the card programme's risky kinds with the settings workflow: `cards.fees` (both fees)
 * and `cards.fxRates` (the rate table), proposed and approved by admins, applied to the one
 * settings row under its row lock — the next application, quote or card payment uses them.
 */
export function registerCardSettingKinds(workflow: SettingsWorkflow, now: () => Date): void {
  registerRiskyKind(workflow, now, WORKFLOW_KIND.fees, FEES, cardFeesSchema);
  registerRiskyKind(workflow, now, WORKFLOW_KIND.fxRates, FX_RATES, cardFxRatesSchema);
}

/** The values of each kind of proposal. */
interface RiskyValues {
  fees: CardFees;
  fxRates: CardFxRates;
}

/** A limit of `currency` read from the wire, refused naming `field` (precision, format, zero). */
function readLimit(text: string, currency: CardCurrency, field: string): bigint {
  const read = readAmountMinor(text, currency);
  if ('refusal' in read) throw new FieldError(field, read.refusal.messageKey, read.refusal.params);
  return read.amountMinor;
}

/**
 * Card programme settings of the back office (each change is
 * audited; risky changes (LTV levels, fees) take effect after a second approval: docs/back-office.md).
 * The physical cards per user, the promotion (switch and instants), the virtual-card currencies, the
 * top-up bounds and the default limits of new cards apply at once — to applications, quotes and new
 * cards from then on (a card keeps its limits). The risky changes — the two fees, and the rate table
 * (it prices every top-up and foreign-currency payment) — go through the settings workflow of the
 * admin module (kinds `cards.fees` and `cards.fxRates`, registered by `registerCardSettingKinds`) and
 * apply only when a different admin approves (153 for one's own, 156 once decided, 176 when the
 * values changed since the proposal); a quote already given keeps its rate. Every write answers its before and after for the audit log (the routes
 * note them). The cards service reads the same row (`readSettings`), so a change is in force for the
 * next call.
 */
export function createCardSettings(db: Db, now: () => Date, workflow: SettingsWorkflow) {
  async function view(tx: DbOrTx): Promise<OpsCardSettings> {
    const row = await readSettings(tx);
    const changes = await workflow.list({ kinds: CARD_KINDS, limit: 20 }, tx);
    return {
      ...feesOf(row),
      physicalCardsMax: row.physicalCardsMax,
      isPromotionEnabled: row.isPromotionEnabled,
      promotionStartsAt: row.promotionStartsAt?.toISOString() ?? null,
      promotionEndsAt: row.promotionEndsAt?.toISOString() ?? null,
      isPromotionOn: isPromotionOn(row, now()),
      virtualCurrencies: CARD_CURRENCIES.filter((currency) => row.virtualCurrencies.includes(currency)),
      topUpMin: money(row.topUpMinMinor, 'USDT'),
      topUpMax: money(row.topUpMaxMinor, 'USDT'),
      defaultLimits: CARD_CURRENCIES.map((currency) => ({
        currency,
        ...(row.defaultLimits[currency] ?? DEFAULT_LIMITS[currency]),
      })),
      fxRates: CARD_CURRENCIES.map((currency) => ({
        currency,
        unitsPerUsd: row.fxRates[currency] ?? DEFAULT_SETTINGS.fxRates[currency]!,
      })),
      changes: changes.map(toChange),
    };
  }

  /** Lock the row, compute the change from it, write it and answer before/after and the view. */
  async function write(
    change: (row: CardSettingsRow) => {
      set: Partial<Omit<CardSettingsRow, 'id'>>;
      before: Record<string, unknown>;
      after: Record<string, unknown>;
    },
  ): Promise<CardSettingsWrite> {
    return db.transaction(async (tx) => {
      const row = await lockedRow(tx);
      const { set, before, after } = change(row);
      await tx
        .update(cardSettings)
        .set({ ...set, updatedAt: now() })
        .where(eq(cardSettings.id, SETTINGS_ID));
      return { before, after, settings: await view(tx) };
    });
  }

  /** Store a proposal of `kind` with the row's current values as `before`; nothing applies yet. */
  async function propose<K extends CardSettingChangeKind>(
    operator: SettingsOperator,
    kindName: K,
    after: RiskyValues[K],
  ): Promise<CardSettingChange> {
    return toChange(await workflow.propose(operator, WORKFLOW_KIND[kindName], '', after));
  }

  const iso = (at: Date | null) => at?.toISOString() ?? null;

  return {
    /** `GET admin/card-settings`. */
    view: () => view(db),

    /**
     * The physical cards per user, the promotion's switch and instants, the virtual-card currencies
     * (each optional), at once. The promotion must start before it ends, with the stored instant
     * where the body leaves one out.
     * @throws FieldError promotionEndsAt (validation.promotionOrder)
     */
    async updateIssuing(body: UpdateCardIssuingBody): Promise<CardSettingsWrite> {
      return write((row) => {
        const instant = (text: string | null | undefined, stored: Date | null) =>
          text === undefined ? stored : text === null ? null : new Date(text);
        const startsAt = instant(body.promotionStartsAt, row.promotionStartsAt);
        const endsAt = instant(body.promotionEndsAt, row.promotionEndsAt);
        if (startsAt && endsAt && startsAt >= endsAt)
          throw new FieldError('promotionEndsAt', 'validation.promotionOrder');
        const summary = (values: {
          physicalCardsMax: number;
          isPromotionEnabled: boolean;
          promotionStartsAt: Date | null;
          promotionEndsAt: Date | null;
          virtualCurrencies: string[];
        }) => ({
          physicalCardsMax: values.physicalCardsMax,
          isPromotionEnabled: values.isPromotionEnabled,
          promotionStartsAt: iso(values.promotionStartsAt),
          promotionEndsAt: iso(values.promotionEndsAt),
          virtualCurrencies: values.virtualCurrencies,
        });
        const next = {
          physicalCardsMax: body.physicalCardsMax ?? row.physicalCardsMax,
          isPromotionEnabled: body.isPromotionEnabled ?? row.isPromotionEnabled,
          promotionStartsAt: startsAt,
          promotionEndsAt: endsAt,
          virtualCurrencies: body.virtualCurrencies
            ? CARD_CURRENCIES.filter((currency) => body.virtualCurrencies!.includes(currency))
            : row.virtualCurrencies,
        };
        return { set: next, before: summary(row), after: summary(next) };
      });
    },

    /** The least and most one top-up spends (coin units, 6 decimals; validated by the contract), at once. */
    async updateTopUp(body: UpdateCardTopUpBody): Promise<CardSettingsWrite> {
      const topUpMinMinor = parseAmountMinor(body.topUpMin, 'USDT');
      const topUpMaxMinor = parseAmountMinor(body.topUpMax, 'USDT');
      return write((row) => ({
        set: { topUpMinMinor, topUpMaxMinor },
        before: { topUpMin: money(row.topUpMinMinor, 'USDT'), topUpMax: money(row.topUpMaxMinor, 'USDT') },
        after: { topUpMin: money(topUpMinMinor, 'USDT'), topUpMax: money(topUpMaxMinor, 'USDT') },
      }));
    },

    /**
     * The default limits of new cards in `currency`, at once (cards already issued keep theirs).
     * @throws FieldError perTransaction / daily / monthly (format, precision of the currency, zero;
     *   validation.cardLimitOrder when per transaction > daily or daily > monthly)
     */
    async updateLimits(currency: CardCurrency, body: UpdateCardLimitsBody): Promise<CardSettingsWrite> {
      const perTransactionMinor = readLimit(body.perTransaction, currency, 'perTransaction');
      const dailyMinor = readLimit(body.daily, currency, 'daily');
      const monthlyMinor = readLimit(body.monthly, currency, 'monthly');
      if (perTransactionMinor > dailyMinor) throw new FieldError('daily', 'validation.cardLimitOrder');
      if (dailyMinor > monthlyMinor) throw new FieldError('monthly', 'validation.cardLimitOrder');
      const limits = {
        perTransaction: money(perTransactionMinor, currency),
        daily: money(dailyMinor, currency),
        monthly: money(monthlyMinor, currency),
      };
      return write((row) => ({
        set: { defaultLimits: { ...row.defaultLimits, [currency]: limits } },
        before: { currency, ...(row.defaultLimits[currency] ?? DEFAULT_LIMITS[currency]) },
        after: { currency, ...limits },
      }));
    },

    /** Propose both fees (validated by the contract); nothing applies yet. */
    propose: (operator: SettingsOperator, after: CardFees) => propose(operator, 'fees', after),

    /** Propose the rate table's EUR, GBP and JPY per 1 USD (validated by the contract; USD stays 1); nothing applies yet. */
    proposeFxRates: (operator: SettingsOperator, after: CardFxRates) => propose(operator, 'fxRates', after),

    /**
     * Approve and apply a proposal of either kind through the settings workflow: the settings row
     * locked, the proposal claimed once and not by its proposer, the row's values still the
     * proposal's `before`, then set to `after` — the next application, quote or card payment uses them.
     * @throws DomainError NOT_FOUND; FOUR_EYES_REQUIRED (153) for the proposer;
     *   SETTING_CHANGE_STATE_CHANGED (156, `{ status }`) once decided; SETTING_CHANGE_STALE (176)
     *   when the values changed since — nothing changes then and the proposal stays proposed.
     */
    approve: async (operator: SettingsOperator, id: number) =>
      toChange(await workflow.approve(operator, id, CARD_KINDS)),

    /** Reject a proposal (any admin, its proposer too; nothing changes). @throws NOT_FOUND; SETTING_CHANGE_STATE_CHANGED (156). */
    reject: async (operator: SettingsOperator, id: number) => toChange(await workflow.reject(operator, id, CARD_KINDS)),
  };
}

/** The back office's card settings (`admin/card-settings*`). */
export type CardSettingsService = ReturnType<typeof createCardSettings>;

/**
 * The history of one card currency's top-up rate, as USD per unit (20 significant digits), oldest
 * first: each applied 'fxRates' change from its approval on (`sinceAt`), preceded by the rate before
 * the first applied change (`sinceAt` null); without any applied change, the current rate table.
 * What statements value a card currency with on a past day (docs/statements.md "Prices"). At most
 * 1,000 changes are read.
 */
export async function cardRateHistory(
  db: DbOrTx,
  workflow: Pick<SettingsWorkflow, 'appliedHistory'>,
  currency: 'EUR' | 'GBP' | 'JPY',
): Promise<{ sinceAt: Date | null; usdPerUnit: string }[]> {
  const usdPer = (unitsPerUsd: string) => new Decimal(1).div(unitsPerUsd).toFixed();
  const changes = await workflow.appliedHistory(WORKFLOW_KIND.fxRates, db);
  if (changes.length === 0) {
    const rate = ratesOf(await readSettings(db))[currency];
    return [{ sinceAt: null, usdPerUnit: usdPer(rate) }];
  }
  const rateIn = (rates: unknown) => (rates as Record<string, string | undefined>)[currency];
  const history: { sinceAt: Date | null; usdPerUnit: string }[] = [];
  const first = rateIn(changes[0]!.before) ?? DEFAULT_SETTINGS.fxRates[currency]!;
  history.push({ sinceAt: null, usdPerUnit: usdPer(first) });
  for (const change of changes) {
    const rate = rateIn(change.after);
    if (rate && change.decidedAt) history.push({ sinceAt: change.decidedAt, usdPerUnit: usdPer(rate) });
  }
  return history;
}
