import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** An inline `<script>` without `src` in a page the build wrote: its exact text between the tags. */
const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)(?:\s[^>]*)?>([\s\S]*?)<\/script>/g;

/**
 * The CSP hash sources (`'sha256-<base64>'`, CSP Level 3 "hash-source") of the inline scripts of
 * `html`, in document order, without repeats. A browser runs an inline script under
 * `script-src 'self' 'sha256-…'` only when the SHA-256 of its exact text (UTF-8) is listed, so a
 * changed or injected script stays blocked (the web build inlines its tiny boot script
 * to spare the first paint a request). The page is our own build output, read once at start-up,
 * so a pattern suffices (no HTML parser): scripts are written `<script>…</script>` by
 * `apps/web/scripts/postbuild.mjs`.
 */
export function inlineScriptHashSources(html: string): string[] {
  const sources = [...html.matchAll(INLINE_SCRIPT)]
    .map((match) => match[1]!)
    .filter((text) => text.trim() !== '')
    .map((text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`);
  return [...new Set(sources)];
}

/**
 * The hash sources of the inline scripts of the built web app's `index.html` in `webDistDir`
 * (`inlineScriptHashSources`); none when there is no built app.
 */
export function webAppScriptHashSources(webDistDir: string | undefined): string[] {
  const indexPath = webDistDir ? join(webDistDir, 'index.html') : undefined;
  if (!indexPath || !existsSync(indexPath)) return [];
  return inlineScriptHashSources(readFileSync(indexPath, 'utf8'));
}
