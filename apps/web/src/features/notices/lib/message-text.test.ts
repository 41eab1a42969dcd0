import { describe, expect, it } from 'vitest';
import { cutText, ELLIPSIS, PREVIEW_CHARACTERS_MAX } from './message-text.ts';

/** Previews and toasts cut at 50 characters plus an ellipsis. */
describe('cutText', () => {
  it('keeps a text of at most 50 characters as it is', () => {
    expect(cutText('Deposit credited')).toBe('Deposit credited');
    const fifty = 'x'.repeat(PREVIEW_CHARACTERS_MAX);
    expect(cutText(fifty)).toBe(fifty);
  });

  it('cuts a longer text at 50 characters and adds an ellipsis', () => {
    const text = `${'a'.repeat(50)}bcdef`;
    expect(cutText(text)).toBe(`${'a'.repeat(50)}${ELLIPSIS}`);
  });

  it('counts characters, not UTF-16 units, so no emoji or CJK character is split', () => {
    const text = `${'😀'.repeat(49)}存款已入帳`;
    const cut = cutText(text);
    expect(Array.from(cut)).toHaveLength(51);
    expect(cut).toBe(`${'😀'.repeat(49)}存${ELLIPSIS}`);
  });

  it('honours another limit', () => {
    expect(cutText('abcdef', 3)).toBe(`abc${ELLIPSIS}`);
  });
});
