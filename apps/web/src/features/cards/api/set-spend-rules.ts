import { cardEndpoints, type SetCardSpendRulesBody } from '@meridian/contracts/cards';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useInvalidateCards } from './card-keys.ts';

/** `PUT card/:id/rules` (`cardEndpoints.setSpendRules`). Silent: the form shows refusals on its fields. */
export async function setSpendRules(id: number, body: SetCardSpendRulesBody) {
  return unwrap(await callEndpoint(cardEndpoints.setSpendRules, { params: { id }, body }, { silent: true }));
}

/** Save a card's spend rules, then refetch the card. */
export function useSetSpendRules(id: number) {
  const invalidate = useInvalidateCards();
  return useMutation({ mutationFn: (body: SetCardSpendRulesBody) => setSpendRules(id, body), onSuccess: invalidate });
}
