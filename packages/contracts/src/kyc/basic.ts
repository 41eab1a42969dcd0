import { z } from 'zod';
import { uuidString } from '../limits.ts';
import { defineEndpoint } from '../endpoint.ts';
import { dateOfBirthSchema, englishNameSchema, idNumberSchemaFor, idTypeSchema } from '../kyc-rules.ts';
import { kycDocumentSchema, KYC_DOCUMENT_KINDS } from './documents.ts';

// ---------------------------------------------------------------- draft and submission

const draftText = (lengthMax: number) =>
  z.string({ error: 'validation.required' }).max(lengthMax, { error: 'validation.tooLong' });

/**
 * The basic-KYC draft (`POST user/info`): every field optional and only bounded in length, so any
 * step can be saved half-filled. The full rules apply at `user/commit`. Country codes are ISO
 * 3166-1 alpha-2; dates `YYYY-MM-DD`.
 */
export const basicKycDraftSchema = z
  .object({
    firstName: draftText(50),
    lastName: draftText(50),
    /** Name in Chinese characters, as on the document when it has one. */
    nameChinese: draftText(50),
    dateOfBirth: draftText(10),
    nationality: draftText(2),
    residence: draftText(2),
    idType: draftText(20),
    idNumber: draftText(40),
    address: draftText(200),
    /** Issue date of the proof of address (at most 90 days before the submission). */
    proofOfAddressDate: draftText(10),
  })
  .partial()
  .strict();
export type BasicKycDraft = z.infer<typeof basicKycDraftSchema>;

/** A country code the server knows (`user/country/list`); checked against the list by the server. */
export const countryCodeSchema = z
  .string({ error: 'validation.country' })
  .max(2, { abort: true })
  .regex(/^[A-Z]{2}$/, { error: 'validation.country' });

/** A residential address: not empty, at most 200 characters. */
export const residentialAddressSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .max(200, { error: 'validation.tooLong' });

/** The issue date of a proof of address, `YYYY-MM-DD` (its 90-day age is checked by the server). */
export const proofOfAddressDateSchema = z
  .string({ error: 'validation.required' })
  .max(10, { abort: true })
  .pipe(z.iso.date({ error: 'validation.proofOfAddressDate' }).max(10));

/**
 * The rules a submission must pass at `user/commit`: names in English characters, 18 or
 * older, an ID number valid for its type, a non-empty address and a proof-of-address date. The
 * server adds the checks that need data (country list, documents, the 90-day age of the proof).
 * `today` is the local date of the check (`YYYY-MM-DD`).
 */
export function basicKycSubmissionSchema(today?: () => string) {
  return z
    .object({
      firstName: englishNameSchema,
      lastName: englishNameSchema,
      nameChinese: z
        .string()
        .trim()
        .max(50, { error: 'validation.tooLong' })
        .optional()
        .transform((value) => (value === '' ? undefined : value)),
      dateOfBirth: dateOfBirthSchema(today),
      nationality: countryCodeSchema,
      residence: countryCodeSchema,
      address: residentialAddressSchema,
      proofOfAddressDate: proofOfAddressDateSchema,
      idType: idTypeSchema,
      idNumber: z
        .string({ error: 'validation.required' })
        .min(1, { error: 'validation.required' })
        .max(40, { error: 'validation.idNumber' }),
    })
    .transform((value, ctx) => {
      const parsed = idNumberSchemaFor(value.idType).safeParse(value.idNumber);
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          ctx.addIssue({ code: 'custom', path: ['idNumber'], message: issue.message });
        return z.NEVER;
      }
      return { ...value, idNumber: parsed.data };
    });
}
export type BasicKycSubmission = z.output<ReturnType<typeof basicKycSubmissionSchema>>;

/** `GET user/info`: the draft, the state of the review and the documents on file. */
export const basicKycStateSchema = z.object({
  /** Spec `status.user`: `status` per `KYC_STATUS`, `message` the reviewer's reason when Failed. */
  status: z.number().int(),
  message: z.string(),
  draft: basicKycDraftSchema,
  /** The frozen submission while Under Review or once Verified; null before the first commit. */
  submitted: z.record(z.string(), z.unknown()).nullable(),
  submittedAt: z.string().nullable(),
  /** When a decision is due: 1 Hong Kong working day after the submission (ISO time); null when none is pending. */
  expectedDecisionAt: z.string().nullable(),
  /** Current document of each kind (the newest upload). */
  documents: z.array(kycDocumentSchema),
  /** The documents the chosen ID type needs. */
  requiredDocuments: z.array(z.enum(KYC_DOCUMENT_KINDS)),
});
export type BasicKycState = z.infer<typeof basicKycStateSchema>;

/** The `:id` of a document in a path. */
export const documentIdParamsSchema = z.object({ id: uuidString({ error: 'validation.required' }) });

export const kycEndpoints = {
  info: defineEndpoint({
    method: 'GET',
    path: '/user/info',
    tag: 'kyc',
    summary: 'Basic identity verification: draft, review state and documents',
    auth: 'user',
    content: basicKycStateSchema,
  }),
  saveDraft: defineEndpoint({
    method: 'POST',
    path: '/user/info',
    tag: 'kyc',
    summary: 'Save the basic identity draft (any step, partly filled)',
    auth: 'user',
    body: basicKycDraftSchema,
    content: basicKycStateSchema,
    codes: ['KYC_LOCKED'],
  }),
  commit: defineEndpoint({
    method: 'POST',
    path: '/user/commit',
    tag: 'kyc',
    summary: 'Submit the basic identity draft for review (every rule checked, documents required)',
    auth: 'user',
    content: basicKycStateSchema,
    codes: ['KYC_LOCKED'],
  }),
  uploadDocuments: defineEndpoint({
    method: 'POST',
    path: '/user/identity/document',
    tag: 'kyc',
    summary:
      'Upload identity documents: multipart/form-data, one file per part, the part name its kind (idFront, idBack, selfie, proofOfAddress); JPG, PNG or PDF by content, at most 10 MB each, 10 files, names of at most 50 characters',
    auth: 'user',
    content: z.array(kycDocumentSchema),
    codes: ['KYC_LOCKED'],
  }),
  readDocument: defineEndpoint({
    method: 'GET',
    path: '/user/identity/document/:id',
    tag: 'kyc',
    summary: 'The bytes of one of the caller’s documents (its own content type; never another user’s)',
    auth: 'user',
    params: documentIdParamsSchema,
    content: z.unknown(),
    codes: ['NOT_FOUND'],
  }),
};
