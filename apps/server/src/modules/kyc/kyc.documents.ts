import { KYC_DOCUMENT_KINDS, KYC_STATUS, type KycDocument, type KycDocumentKind } from '@meridian/contracts/kyc';
import { and, eq } from 'drizzle-orm';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { UPLOADS_FIELD } from '../../platform/uploads/multipart-reader.ts';
import type { ValidatedUpload } from '../../platform/uploads/upload-rules.ts';
import { kycDocuments, kycQualified } from './kyc.tables.ts';
import {
  type KycContext,
  INVESTOR_DOCUMENT_KINDS,
  basicRow,
  assertEditable,
  investorRow,
  toDocument,
} from './kyc.internal.ts';
import { openResidenceChange } from './kyc.residence.ts';

/** The documents of every step: uploads (each kind locked by its own step) and reading one back. Part of the KYC service (`kyc.service.ts`). */
export function createDocumentSteps(ctx: KycContext) {
  return {
    /**
     * Store uploaded documents, each under its kind (the multipart field name); the newest of a kind
     * is the current one. All files are checked before any is stored: one bad file stores nothing.
     * @throws FieldError `files` (validation.documentKind) naming a file with an unknown kind;
     *   DomainError KYC_LOCKED while the step a kind belongs to (basic KYC, the investor profile, the
     *   qualified-investor application) is Under Review or Verified — except a verified user's new
     *   `proofOfAddress` for a change of residence, while none is Under Review.
     */
    async addDocuments(userId: string, files: readonly ValidatedUpload[]): Promise<KycDocument[]> {
      const stranger = files.find((file) => !(KYC_DOCUMENT_KINDS as readonly string[]).includes(file.fieldName));
      if (stranger) throw new FieldError(UPLOADS_FIELD, 'validation.documentKind', { file: stranger.fileName });
      // Each kind is locked by its own step: a verified basic KYC does not stop the company documents
      // of the investor profile nor the evidence of a qualified-investor application.
      const kinds = new Set(files.map((file) => file.fieldName as KycDocumentKind));
      const basicKinds = [...kinds].filter(
        (kind) => !INVESTOR_DOCUMENT_KINDS.has(kind) && kind !== 'qualifiedEvidence',
      );
      if (basicKinds.length > 0) {
        const row = await basicRow(ctx, userId);
        // A verified user may upload a new proof of address for a change of residence (none Under Review).
        const isResidenceProof =
          row?.status === KYC_STATUS.VERIFIED &&
          basicKinds.every((kind) => kind === 'proofOfAddress') &&
          !(await openResidenceChange(ctx, userId));
        if (!isResidenceProof) assertEditable(row);
      }
      if ([...kinds].some((kind) => INVESTOR_DOCUMENT_KINDS.has(kind))) assertEditable(await investorRow(ctx, userId));
      if (kinds.has('qualifiedEvidence')) {
        const [qualified] = await ctx.db.select().from(kycQualified).where(eq(kycQualified.userId, userId)).limit(1);
        assertEditable(qualified);
      }
      const stored = await ctx.deps.uploads.saveAll(files);
      try {
        const rows = await ctx.db
          .insert(kycDocuments)
          // Dated by the app's clock: a proof of address counts only when uploaded after the last decision.
          .values(
            stored.map((item, index) => ({ userId, kind: files[index]!.fieldName, ...item, createdAt: ctx.now() })),
          )
          .returning();
        return rows.map(toDocument);
      } catch (error) {
        await Promise.allSettled(stored.map((item) => ctx.deps.uploads.remove(item.storageKey)));
        throw error;
      }
    },
    /**
     * The bytes of one of `userId`'s documents.
     * @throws DomainError NOT_FOUND when the document is someone else's or does not exist (the same answer).
     */
    async readDocument(
      userId: string | null,
      documentId: string,
    ): Promise<{ bytes: Buffer; mimeType: string; fileName: string }> {
      const condition =
        userId === null
          ? eq(kycDocuments.id, documentId)
          : and(eq(kycDocuments.id, documentId), eq(kycDocuments.userId, userId));
      const [row] = await ctx.db.select().from(kycDocuments).where(condition).limit(1);
      const bytes = row ? await ctx.deps.uploads.read(row.storageKey) : null;
      if (!row || !bytes) throw new DomainError('NOT_FOUND');
      return { bytes, mimeType: row.mimeType, fileName: row.fileName };
    },
  };
}
