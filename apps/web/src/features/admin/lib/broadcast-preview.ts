import type { SendBroadcastBody } from '@meridian/contracts/back-office';

/** The texts of a broadcast being written: any may still be empty or missing. */
export type BroadcastDraft = Partial<Pick<SendBroadcastBody, 'titleEn' | 'titleZh' | 'bodyEn' | 'bodyZh'>>;

/** How one message will read in the user's message centre: null parts are not written yet. */
export interface BroadcastPreview {
  title: string | null;
  body: string | null;
}

/**
 * What a user of `locale` will read (the live preview of the new-broadcast
 * form): the title and body of that language, trimmed as the server stores them; an empty text is
 * null (the preview shows a placeholder).
 */
export function broadcastPreview(draft: BroadcastDraft, locale: 'en-US' | 'zh-HK'): BroadcastPreview {
  const pick = (text: string | undefined) => {
    const trimmed = (text ?? '').trim();
    return trimmed === '' ? null : trimmed;
  };
  return locale === 'zh-HK'
    ? { title: pick(draft.titleZh), body: pick(draft.bodyZh) }
    : { title: pick(draft.titleEn), body: pick(draft.bodyEn) };
}
