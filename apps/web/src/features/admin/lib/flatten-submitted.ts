/** One line of submitted data: its dotted path (`address.city`, `directors.0.name`) and its text. */
export interface SubmittedLine {
  path: string;
  text: string;
}

/** Bounds the lines shown for one submission, whatever the server sends. */
const LINES_MAX = 300;

/**
 * A submission's typed data (`submitted`, any JSON) as labelled lines for the review page: nested
 * objects and arrays are walked depth first into dotted paths; empty values show as a dash.
 */
export function flattenSubmitted(value: unknown): SubmittedLine[] {
  const lines: SubmittedLine[] = [];
  const walk = (node: unknown, path: string) => {
    if (lines.length >= LINES_MAX) return;
    if (node !== null && typeof node === 'object') {
      const entries = Array.isArray(node)
        ? node.map((item, index) => [String(index), item] as const)
        : Object.entries(node);
      if (entries.length === 0) lines.push({ path, text: '—' });
      for (const [key, child] of entries) walk(child, path ? `${path}.${key}` : key);
      return;
    }
    const text = node === null || node === undefined || node === '' ? '—' : String(node);
    lines.push({ path, text });
  };
  if (value !== null && value !== undefined) walk(value, '');
  return lines;
}
