import type { AppModule } from '../../platform/app-module.ts';
import type { Database } from '../../platform/db/client.ts';
import { calendarRoutes } from './calendar.routes.ts';
import { CalendarService, type CalendarServiceDeps } from './calendar.service.ts';

/** What `buildApp` hands the calendar module: the services it reads, the secret and the public URL. */
export interface CalendarModuleDeps extends Omit<CalendarServiceDeps, 'db'> {
  database: Database;
}

/**
 * Wire the user's calendar (docs/calendar.md): routes `calendar/*` (the events, the feed
 * address and its rotation, the public ICS feed); no jobs.
 */
export function createCalendarModule(deps: CalendarModuleDeps): AppModule<CalendarService> {
  const { database, ...rest } = deps;
  const service = new CalendarService({ db: database.db, ...rest });
  return { service, routes: calendarRoutes(service), jobs: [] };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The user's calendar (tests). */
    calendar: CalendarService;
  }
}
