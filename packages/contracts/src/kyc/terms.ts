import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { pageSchema } from '../pagination.ts';

// ---------------------------------------------------------------- announcements of changes of terms

/** Hong Kong working days between the announcement of a change of terms and its effect. */
export const TERMS_NOTICE_WORKING_DAYS = 7;

const termsText = (lengthMax: number) =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(lengthMax, { error: 'validation.tooLong' });

/**
 * `POST admin/terms-changes`: a change of terms in both languages and the Hong Kong date it takes
 * effect, at least 7 Hong Kong working days after today (checked by the server, which names the
 * earliest allowed date on `effectiveOn`).
 */
export const termsChangeInputSchema = z.object({
  titleEn: termsText(100),
  titleZh: termsText(100),
  bodyEn: termsText(1500),
  bodyZh: termsText(1500),
  effectiveOn: z
    .string({ error: 'validation.required' })
    .max(10, { abort: true })
    .pipe(z.iso.date({ error: 'validation.date' }).max(10)),
});
export type TermsChangeInput = z.output<typeof termsChangeInputSchema>;

/** A scheduled change of terms as operators see it. */
export const termsChangeSchema = z.object({
  id: z.string(),
  titleEn: z.string(),
  titleZh: z.string(),
  bodyEn: z.string(),
  bodyZh: z.string(),
  /** Hong Kong date the change applies from. */
  effectiveOn: z.string(),
  /** Hong Kong date users are told: 7 working days before `effectiveOn`. */
  announceOn: z.string(),
  /** When the messages were sent; null until then. */
  announcedAt: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
});
export type TermsChange = z.infer<typeof termsChangeSchema>;

/** Operators' API of changes of terms (bearer token; scheduling needs role admin or compliance). */
export const opsTermsEndpoints = {
  scheduleTerms: defineEndpoint({
    method: 'POST',
    path: '/admin/terms-changes',
    tag: 'back-office',
    summary:
      'Schedule an announcement of a change of terms: messaged to every active user 7 Hong Kong working days before it takes effect',
    auth: 'operator',
    roles: ['compliance'],
    body: termsChangeInputSchema,
    content: termsChangeSchema,
    codes: ['FORBIDDEN'],
  }),
  listTerms: defineEndpoint({
    method: 'GET',
    path: '/admin/terms-changes',
    tag: 'back-office',
    summary: 'Scheduled and announced changes of terms, newest effective date first',
    auth: 'operator',
    roles: ['compliance', 'support'],
    query: z.object({
      pageID: z.coerce.number().int().min(1).default(1),
      pageSize: z.coerce.number().int().min(1).max(100).default(20),
    }),
    content: pageSchema(termsChangeSchema),
    codes: ['FORBIDDEN'],
  }),
};
