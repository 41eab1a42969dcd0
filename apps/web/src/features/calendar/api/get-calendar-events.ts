import { calendarEndpoints } from '@meridian/contracts/calendar';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { calendarKeys } from './calendar-keys.ts';

/**
 * `GET calendar/events?from&to` (`calendarEndpoints.events`): the signed-in user's dates between two
 * Hong Kong days (both included), titles in the language of the request.
 */
export async function getCalendarEvents(from: string, to: string) {
  return unwrap(await callEndpoint(calendarEndpoints.events, { query: { from, to } }));
}

/** The events of a range; refetched when the language changes (the titles are the server's). */
export function useCalendarEvents(from: string, to: string) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: calendarKeys.events(from, to, i18n.language),
    queryFn: () => getCalendarEvents(from, to),
  });
}
