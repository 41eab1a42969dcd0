import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';

/**
 * A back-office write: runs `mutationFn` (which throws `ApiError` on a refusal, already shown as a
 * toast by the HTTP client) and then refreshes the lists it may have changed.
 */
export function useAdminMutation<Input, Output>(
  mutationFn: (input: Input) => Promise<Output>,
  invalidates: readonly QueryKey[],
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async () => {
      await Promise.all(invalidates.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  });
}
