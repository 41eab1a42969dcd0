/** TanStack Query keys of the calendar feature. */
export const calendarKeys = {
  all: ['calendar'] as const,
  events: (from: string, to: string, language: string) => ['calendar', 'events', from, to, language] as const,
  feed: ['calendar', 'feed'] as const,
};
