/**
 * The few business codes the web client's first paint branches on, apart from the catalogue
 * (`codes.ts`, which uses them): the catalogue holds every message in both languages, and a module
 * the entry chunk imports lands in the entry chunk whole, so the client's HTTP layer imports these
 * instead (home page budget, `scripts/bundle-budget.mjs`).
 */

/** 143: the call needs an identity level the user lacks; `content` names the step. */
export const KYC_REQUIRED_CODE = 143;

/** Codes the web client shows as a notification with the message as description. */
export const NOTIFICATION_CODES: readonly number[] = [103, 105, 106, 107, 108];
