import { calendarEndpoints } from '@meridian/contracts/calendar';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { calendarKeys } from './calendar-keys.ts';

/** `POST calendar/feed/rotate` (`calendarEndpoints.rotateFeed`): a new address; the old one answers 404. */
export async function rotateCalendarFeed() {
  return unwrap(await callEndpoint(calendarEndpoints.rotateFeed, {}));
}

/** Rotate the feed address and show the new one at once. */
export function useRotateCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateCalendarFeed,
    onSuccess: (feed) => queryClient.setQueryData(calendarKeys.feed, feed),
  });
}
