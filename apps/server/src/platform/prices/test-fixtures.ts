import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FetchFn } from './http.ts';

/** The text of a recorded exchange answer in `fixtures/`. */
export function fixture(name: string): string {
  return readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');
}

/** A route of the fake exchange: the request URL, and the fixture and status it answers with. */
export interface FakeRoute {
  url: string;
  file: string;
  status?: number;
}

/**
 * A `fetch` that answers from fixtures by exact URL (404 for anything else) and records the URLs
 * asked, so a test proves the request each source makes. `hang` URLs never answer until aborted.
 */
export function fakeFetch(routes: FakeRoute[], hang: string[] = []): FetchFn & { calls: string[] } {
  const calls: string[] = [];
  const fn = async (input: string, init: { signal: AbortSignal }) => {
    calls.push(input);
    if (hang.includes(input)) {
      return new Promise<Response>((_resolve, reject) => {
        init.signal.addEventListener('abort', () => reject(init.signal.reason), { once: true });
      });
    }
    const route = routes.find((candidate) => candidate.url === input);
    if (!route) return new Response('{"error":"not found"}', { status: 404 });
    return new Response(fixture(route.file), {
      status: route.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return Object.assign(fn, { calls });
}
