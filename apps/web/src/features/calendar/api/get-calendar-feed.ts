import { calendarEndpoints } from '@meridian/contracts/calendar';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { calendarKeys } from './calendar-keys.ts';

/** `GET calendar/feed` (`calendarEndpoints.getFeed`): the user's secret ICS address (made on first call). */
export async function getCalendarFeed() {
  return unwrap(await callEndpoint(calendarEndpoints.getFeed, {}));
}

/** The feed address. */
export function useCalendarFeed() {
  return useQuery({ queryKey: calendarKeys.feed, queryFn: getCalendarFeed });
}
