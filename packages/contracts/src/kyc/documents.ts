import { z } from 'zod';
import { ID_TYPES_WITH_BACK, type IdType } from '../kyc-rules.ts';

// ---------------------------------------------------------------- documents

/** The document kinds of basic KYC and of a company investor profile; a multipart file's field name is its kind. */
export const KYC_DOCUMENT_KINDS = [
  'idFront',
  'idBack',
  'selfie',
  'proofOfAddress',
  'certificateOfIncorporation',
  'registerOfDirectors',
  'qualifiedEvidence',
] as const;
export type KycDocumentKind = (typeof KYC_DOCUMENT_KINDS)[number];

/** The documents a submission with `idType` needs: the back only for types that have one. */
export function requiredDocumentKinds(idType: IdType): KycDocumentKind[] {
  return ID_TYPES_WITH_BACK.has(idType)
    ? ['idFront', 'idBack', 'selfie', 'proofOfAddress']
    : ['idFront', 'selfie', 'proofOfAddress'];
}

/** One stored document as its owner sees it (the bytes are read through `documentRead`). */
export const kycDocumentSchema = z.object({
  id: z.string(),
  kind: z.enum(KYC_DOCUMENT_KINDS),
  fileName: z.string(),
  mimeType: z.string(),
  sizeBytes: z.number().int(),
  createdAt: z.string(),
});
export type KycDocument = z.infer<typeof kycDocumentSchema>;
