import type { Card, CardCurrency, CardNetwork } from '@meridian/contracts/cards';
import { toDecimalString } from '@meridian/contracts/money';
import type { SettleAnswer } from '../../platform/db/idempotency.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { readAmountMinor } from '@meridian/contracts/money';
import { type FactorCheck, NO_FACTORS } from './cards.internal.ts';
import type { ApplyCardInput, EmployeeCardTerms } from './cards.service.ts';

/** An employee card as the route hands it over: limits still the wire's decimal strings. */
export interface EmployeeCardInput {
  employeeName: string;
  network: CardNetwork;
  currency: CardCurrency;
  limits: { perTransaction: string; daily: string; monthly: string };
}

/** What the employee-card service needs: whether the user's PRO account is approved, and the card application. */
export interface CardCorporateDeps {
  /** The corporate module's answer (`app.ts` creates the corporate module before the cards and hands its service over). */
  isApprovedPro(userId: string): Promise<boolean>;
  /** `CardsService.apply`: the virtual-card application, its fee, idempotency and security check. */
  apply(
    userId: string,
    input: ApplyCardInput,
    idempotencyKey: string | undefined,
    factors: FactorCheck,
    settleAnswer?: SettleAnswer,
  ): Promise<Card>;
  /** The default limits of a new card in `currency` from the card programme settings (minor units). */
  standardLimits(currency: CardCurrency): Promise<EmployeeCardTerms['limitsMinor']>;
}

const LIMIT_FIELDS = ['perTransaction', 'daily', 'monthly'] as const;

/**
 * Read an employee card's limits: each a positive amount of the card's
 * currency, at most the standard limit of a card (`standard`: the settings' default limits of a new
 * card in that currency, minor units; higher limits stay a
 * request to customer service, as for every card), and per payment ≤ per day ≤ per month.
 * @throws FieldError `limits.<field>` (`validation.amount*`, `validation.cardLimitMax`, `validation.cardLimitOrder`)
 */
export function readEmployeeLimits(
  limits: EmployeeCardInput['limits'],
  currency: CardCurrency,
  standard: EmployeeCardTerms['limitsMinor'],
): EmployeeCardTerms['limitsMinor'] {
  const read = {} as EmployeeCardTerms['limitsMinor'];
  for (const field of LIMIT_FIELDS) {
    const parsed = readAmountMinor(limits[field], currency);
    if ('refusal' in parsed) throw new FieldError(`limits.${field}`, parsed.refusal.messageKey, parsed.refusal.params);
    if (parsed.amountMinor > standard[field])
      throw new FieldError(`limits.${field}`, 'validation.cardLimitMax', {
        max: toDecimalString(standard[field], currency),
        currency,
      });
    read[field] = parsed.amountMinor;
  }
  if (read.perTransaction > read.daily) throw new FieldError('limits.perTransaction', 'validation.cardLimitOrder');
  if (read.daily > read.monthly) throw new FieldError('limits.daily', 'validation.cardLimitOrder');
  return read;
}

/**
 * Employee cards of PRO accounts (approved corporate users issue cards to named
 * employees with per-card limits; docs/corporate.md). A card is an ordinary virtual card of the PRO user — the same
 * application (fee rules, `Idempotency-Key`, CARD_APPLY check), ledger accounts and authorisation
 * decision — with the employee's name in `cards.employee_name` (and as the printed cardholder name)
 * and the company's limits written to the card's own limit columns, which the authorisation
 * decision (`cards.events.ts`, unchanged) already checks per payment, per day and per month.
 */
export function createCardCorporateService(deps: CardCorporateDeps) {
  return {
    /**
     * `POST card/employee`: issue a virtual card to a named employee.
     * @throws DomainError PRO_ACCOUNT_REQUIRED (283) unless the user's PRO account is approved;
     *   FieldError `limits.*`; and every refusal of `apply` (130, 152, 119, 121).
     */
    async issueEmployeeCard(
      userId: string,
      input: EmployeeCardInput,
      idempotencyKey: string | undefined,
      factors: FactorCheck = NO_FACTORS,
      settleAnswer?: SettleAnswer,
    ): Promise<Card> {
      if (!(await deps.isApprovedPro(userId))) throw new DomainError('PRO_ACCOUNT_REQUIRED');
      const limitsMinor = readEmployeeLimits(input.limits, input.currency, await deps.standardLimits(input.currency));
      return deps.apply(
        userId,
        {
          kind: 'VIRTUAL',
          network: input.network,
          currency: input.currency,
          cardholderName: input.employeeName,
          employee: { name: input.employeeName, limitsMinor },
        },
        idempotencyKey,
        factors,
        settleAnswer,
      );
    },
  };
}
