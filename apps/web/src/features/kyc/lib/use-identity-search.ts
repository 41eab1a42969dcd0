import { useSearchParams } from 'react-router';
import { safeReturnTo } from './kyc-view.ts';

/**
 * The query the identity pages pass along (docs/kyc.md "Web"): `returnTo` (where the user came
 * from, kept only when a path of this site) and `locale`. `withSearch(path)` adds them to a link, so
 * that after a step the user can go back where they came from.
 */
export function useIdentitySearch() {
  const [params] = useSearchParams();
  const returnTo = safeReturnTo(params.get('returnTo'));
  const kept = new URLSearchParams();
  if (returnTo) kept.set('returnTo', returnTo);
  const locale = params.get('locale');
  if (locale) kept.set('locale', locale);
  const search = kept.toString();
  return { returnTo, withSearch: (path: string) => (search ? `${path}?${search}` : path) };
}
