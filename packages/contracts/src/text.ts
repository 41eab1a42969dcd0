import { z } from 'zod';

/**
 * The one rule for text that enters through a contract (docs/decisions/0010-input-rules.md): a string may not hold U+0000 or any other C0 control
 * (U+0001–U+001F, including tab, line feed and carriage return), DEL (U+007F), a C1 control
 * (U+0080–U+009F), a bidirectional formatting control (`BIDI_CONTROL_PATTERN`), or a lone UTF-16
 * surrogate. PostgreSQL refuses U+0000 in text (`invalid byte sequence for encoding "UTF8": 0x00`),
 * the others have no place in a label, an address, a code or a network name, a bidi control makes
 * text display in another order than it is stored (`a\u202Egnp.exe` shows as `aexe.png`), and a
 * lone surrogate cannot be stored as UTF-8.
 *
 * Right-to-left letters (Arabic, Hebrew …) are text, not controls, and stay accepted everywhere;
 * the web shows user-entered free text isolated (`<bdi>`, `unicode-bidi: isolate`), so it cannot
 * reorder what surrounds it. The app has no right-to-left language, so the invisible direction
 * marks (U+200E, U+200F, U+061C) are refused with the rest.
 *
 * No field of the API is multi-line today, so tab, LF and CR are refused everywhere. A future
 * multi-line field (a message body) would be the only place to allow them, with
 * `MULTILINE_TEXT_ALLOWED` below, and must be named in `MULTILINE_FIELDS`.
 *
 * The server applies the rule centrally to every body, query string, path parameter and header a
 * route validates (apps/server platform/http/validation.ts), and to upload file names
 * (platform/uploads/upload-rules.ts), before any handler or pre-handler runs, so no route can
 * forget it; web forms use `safeText()` for the same rule.
 */

/**
 * The bidirectional formatting controls (Unicode UAX #9): ALM U+061C, LRM U+200E, RLM U+200F, the
 * embeddings and overrides U+202A–U+202E (LRE, RLE, PDF, LRO, RLO) and the isolates U+2066–U+2069
 * (LRI, RLI, FSI, PDI).
 */
export const BIDI_CONTROL_PATTERN = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Everything the rule refuses, as one pattern (no `u` flag: it reads UTF-16 units). */
export const UNSAFE_TEXT_PATTERN =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point of the rule
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Tab, LF and CR: the only controls a multi-line field may hold. */
export const MULTILINE_TEXT_ALLOWED = new Set(['\t', '\n', '\r']);

/** Dotted paths (`part.field`) of the multi-line free-text fields; none exist today. */
export const MULTILINE_FIELDS: ReadonlySet<string> = new Set<string>();

/** The validation message key of a refused string (`contracts/validation.ts`). */
export const UNSAFE_TEXT_MESSAGE_KEY = 'validation.controlCharacter';

/** Whether `text` breaks the rule (holds a control character or a lone surrogate). */
export function hasUnsafeCharacters(text: string, options: { multiline?: boolean } = {}): boolean {
  // No `u` flag: the pattern reads UTF-16 units, so a lone surrogate is seen as one.
  if (!options.multiline) return UNSAFE_TEXT_PATTERN.test(text);
  for (const match of text.matchAll(new RegExp(UNSAFE_TEXT_PATTERN.source, 'g'))) {
    if (!(options.multiline && MULTILINE_TEXT_ALLOWED.has(match[0]))) return true;
  }
  return false;
}

/**
 * Every path (keys from the root) at which `value` — a parsed JSON body, a query string, params
 * or headers, at any depth — holds a string, or an object key, that breaks the rule. At most
 * `limit` paths are returned (a hostile body may have millions). `isMultiline` is asked only about
 * a string the strict rule refuses; the path it is given is the walk's own, valid during the call
 * only (read it, do not keep it).
 */
export function findUnsafeText(
  value: unknown,
  options: { limit?: number; isMultiline?: (path: readonly PropertyKey[]) => boolean } = {},
): PropertyKey[][] {
  const limit = options.limit ?? 20;
  const found: PropertyKey[][] = [];
  // One path, pushed and popped on the way down; copied only for a finding. Every request part of
  // every route passes here, so safe input (nearly all of it) allocates nothing.
  const path: PropertyKey[] = [];
  // A string safe under the strict rule is safe in a multi-line field too, so the field is looked
  // up only for a string the strict rule refuses.
  const isUnsafeHere = (text: string) =>
    hasUnsafeCharacters(text) && !(options.isMultiline?.(path) && !hasUnsafeCharacters(text, { multiline: true }));
  const visit = (node: unknown, depth: number) => {
    if (found.length >= limit || depth > 64) return;
    if (typeof node === 'string') {
      if (isUnsafeHere(node)) found.push([...path]);
      return;
    }
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) {
        path.push(index);
        visit(node[index], depth + 1);
        path.pop();
      }
      return;
    }
    if (node !== null && typeof node === 'object') {
      for (const key of Object.keys(node)) {
        path.push(key);
        if (hasUnsafeCharacters(key)) found.push([...path]);
        else visit((node as Record<string, unknown>)[key], depth + 1);
        path.pop();
      }
    }
  };
  visit(value, 0);
  return found;
}

/** A zod string with the rule (web forms and any schema that wants the check in the contract itself). */
export function safeText(options: { multiline?: boolean } = {}) {
  return z.string().refine((text) => !hasUnsafeCharacters(text, options), { error: UNSAFE_TEXT_MESSAGE_KEY });
}
