/** Characters kept at the start of a shortened address: with the end, enough to compare it with the one sent to. */
export const ADDRESS_HEAD_CHARS = 8;
/** Characters kept at the end of a shortened address. */
export const ADDRESS_TAIL_CHARS = 6;

/**
 * A long chain address (or hash) shortened in the middle, `TNPeeaaF…1NYqeL`, so that both ends stay
 * readable in a narrow table cell; text no longer than what would be kept is returned unchanged.
 */
export function shortenMiddle(text: string, headChars = ADDRESS_HEAD_CHARS, tailChars = ADDRESS_TAIL_CHARS): string {
  if (text.length <= headChars + tailChars + 1) return text;
  return `${text.slice(0, headChars)}…${text.slice(-tailChars)}`;
}
