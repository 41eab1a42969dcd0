import type { Envelope } from '@meridian/contracts/envelope';
import { API_BASE_PATH, CSRF_HEADER_VALUE, HEADER_CSRF, HEADER_USER_LANG } from '@meridian/contracts/http';
import type { KycDocument, KycDocumentKind } from '@meridian/contracts/kyc';
import { kycEndpoints } from '@meridian/contracts/kyc';
import { getStoredLocale } from '../../../lib/locale.ts';

/** What an upload ends with: the stored documents, or the server's refusal (its message names the file and the rule). */
export type UploadOutcome = { isOk: true; documents: KycDocument[] } | { isOk: false; message: string };

/**
 * `POST user/identity/document` (multipart/form-data, the part name is the document kind; docs/kyc.md
 * "Files"). Sent with XMLHttpRequest, because fetch reports no upload progress; `onProgressPercent`
 * gets 0–100. Resolves, never rejects: a network failure is a refusal with `networkMessage`.
 */
export function uploadKycDocument(
  kind: KycDocumentKind,
  file: File,
  onProgressPercent: (percent: number) => void,
  networkMessage: string,
): Promise<UploadOutcome> {
  return new Promise((resolve) => {
    const body = new FormData();
    body.append(kind, file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE_PATH}${kycEndpoints.uploadDocuments.path}`);
    xhr.setRequestHeader(HEADER_CSRF, CSRF_HEADER_VALUE);
    xhr.setRequestHeader(HEADER_USER_LANG, getStoredLocale());
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgressPercent(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      try {
        const envelope = JSON.parse(xhr.responseText) as Envelope<KycDocument[]>;
        if (envelope.statusCode === 200 && Array.isArray(envelope.content))
          resolve({ isOk: true, documents: envelope.content });
        else {
          const fields = (envelope.content as { fields?: { message: string }[] } | null)?.fields;
          resolve({ isOk: false, message: fields?.[0]?.message ?? (envelope.message || networkMessage) });
        }
      } catch {
        resolve({ isOk: false, message: networkMessage });
      }
    };
    xhr.onerror = () => resolve({ isOk: false, message: networkMessage });
    xhr.send(body);
  });
}
