/**
 * User-entered text (a merchant's name, a reviewer's reason) placed inside a sentence, isolated
 * between U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE: the text form of `<bdi>`
 * (Unicode UAX #9), for strings built by i18n interpolation where an element cannot go. A
 * right-to-left run in it cannot reorder the words around it. The API refuses bidi controls in
 * input (docs/decisions/0010-input-rules.md); right-to-left letters stay allowed, hence this.
 */
export function isolateText(text: string): string {
  return `\u2068${text}\u2069`;
}
