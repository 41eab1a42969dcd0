import { opsKycEndpoints } from '@meridian/contracts/kyc';
import { useQuery } from '@tanstack/react-query';
import { adminFetch, adminKeys } from './admin-call.ts';

/** `GET admin/kyc/:userId`: the user's submission with its documents, decisions and later steps. */
export function showKycSubmission(userId: string) {
  return adminFetch(opsKycEndpoints.show, { params: { userId } });
}

/** One review's data. */
export function useKycSubmission(userId: string) {
  return useQuery({ queryKey: adminKeys.kycReview(userId), queryFn: () => showKycSubmission(userId) });
}
