/**
 * Text cuts of the message centre: the header preview cuts a body at 50 characters, and
 * the push toast cuts its title and body at 50 characters, each followed by an ellipsis when cut.
 * No date library here: this file is part of the header's first load.
 */
export const PREVIEW_CHARACTERS_MAX = 50;
export const ELLIPSIS = '…';

/**
 * `text` cut to `charactersMax` characters plus an ellipsis, or unchanged when it is not longer.
 * Characters are counted as code points, so an emoji or a rare CJK character is never split in half.
 */
export function cutText(text: string, charactersMax: number = PREVIEW_CHARACTERS_MAX): string {
  const characters = Array.from(text);
  if (characters.length <= charactersMax) return text;
  return `${characters.slice(0, charactersMax).join('')}${ELLIPSIS}`;
}
