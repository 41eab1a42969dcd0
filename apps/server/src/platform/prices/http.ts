import { PriceSourceError } from './types.ts';

/** The `fetch` the HTTP sources call; tests pass one that answers from recorded fixtures. */
export type FetchFn = (
  input: string,
  init: { signal: AbortSignal; headers: Record<string, string> },
) => Promise<Response>;

/**
 * GET `url` and parse its JSON body, giving up after `timeoutMs`.
 * @throws PriceSourceError kind 'timeout', 'network', 'http' (non-2xx) or 'body' (not JSON).
 */
export async function fetchJson(source: string, url: string, timeoutMs: number, fetchFn: FetchFn): Promise<unknown> {
  let response: Response;
  try {
    response = await fetchFn(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
  } catch (error) {
    const isTimeout = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new PriceSourceError(
      source,
      isTimeout ? 'timeout' : 'network',
      isTimeout ? `no answer within ${timeoutMs} ms` : String(error),
    );
  }
  if (!response.ok) {
    // Drain the body so the connection can be reused; its text is not trusted further.
    await response.text().catch(() => '');
    throw new PriceSourceError(source, 'http', `HTTP ${response.status} from ${new URL(url).host}`);
  }
  try {
    return (await response.json()) as unknown;
  } catch {
    throw new PriceSourceError(source, 'body', 'the answer is not JSON');
  }
}

/** A plain positive decimal as exchanges write prices ("91234.56000000"); no sign, exponent or separators. */
export const PRICE_TEXT_PATTERN = /^(0|[1-9]\d*)(\.\d+)?$/;

/** Narrow an unknown JSON value to an object, for the parsers. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
