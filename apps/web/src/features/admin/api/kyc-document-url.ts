import { endpointPath } from '@meridian/contracts/endpoint';
import { API_BASE_PATH } from '@meridian/contracts/http';
import { opsKycEndpoints } from '@meridian/contracts/kyc';
import { buildUrl } from '../../../lib/api-client.ts';

/**
 * `GET admin/kyc/documents/:id` answers the file's bytes in its own content type, so the page uses
 * its address as an `<img>` or `<iframe>` source (the session cookie goes with it).
 */
export function kycDocumentUrl(documentId: string): string {
  return buildUrl(endpointPath(opsKycEndpoints.readDocument, { id: documentId }), {}, API_BASE_PATH);
}
