import { createCardCorporateService } from './cards.corporate.ts';
import { createCardEventsService } from './cards.events.ts';
import { createCardOpsService } from './cards.ops.ts';
import { type CardsDeps, defaultLimitsMinor, readSettings } from './cards.internal.ts';
import { createCardApplications } from './cards.applications.ts';
import { createCardTopUps } from './cards.topups.ts';
import { createCardControls } from './cards.controls.ts';
import { createCardLimits } from './cards.limits.ts';
import { createCardHoldings } from './cards.holdings.ts';

export type { CardsDeps, FactorCheck } from './cards.internal.ts';

export type { ApplyCardInput, EmployeeCardTerms } from './cards.applications.ts';
export { topUpRate } from './cards.topups.ts';

/**
 * Cards (card, PIN, basic verification, declines, constants):
 * applying and binding, top-ups at a locked rate, lock, reveal, PIN, spend rules, limit-change
 * requests, and (from `cards.events.ts`) the processor's webhook and the authorisation decision.
 * Every balance change is one ledger entry (docs/cards.md).
 * One object made of the module's parts: `cards.applications.ts` (apply, bind, settings,
 * list), `cards.topups.ts`, `cards.controls.ts` (a card's page, lock, reveal, PIN, rules),
 * `cards.limits.ts`, `cards.holdings.ts` (what other modules read) and `cards.events.ts` (the
 * processor's side); other modules, CLIs and tests import this file only.
 */
export function createCardsService(deps: CardsDeps) {
  const { db } = deps;
  const applications = createCardApplications(deps);
  const service = {
    /** The back office's card operations (`cards.ops.ts`). */
    ops: createCardOpsService(deps),
    ...createCardEventsService(deps),
    ...applications,
    ...createCardTopUps(deps),
    ...createCardControls(deps),
    ...createCardLimits(deps),
    ...createCardHoldings(deps),
  };
  // Employee cards of PRO accounts (`cards.corporate.ts`): an application through `apply` above.
  const corporate = createCardCorporateService({
    isApprovedPro: (userId) => deps.corporate.isApprovedPro(userId),
    apply: (userId, input, idempotencyKey, factors, settleAnswer) =>
      applications.apply(userId, input, idempotencyKey, factors, settleAnswer),
    standardLimits: async (currency) => defaultLimitsMinor(await readSettings(db), currency),
  });
  return { ...service, ...corporate };
}

/** The cards service: user calls and the processor's side. */
export type CardsService = ReturnType<typeof createCardsService>;
