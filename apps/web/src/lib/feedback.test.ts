import { describe, expect, it, vi } from 'vitest';
import { bindFeedbackSink, onFeedbackDemand, showFeedback, type FeedbackEvent } from './feedback.ts';

/** Messages raised before the toast host exists wait for it, and ask the app to load it. */
describe('feedback', () => {
  it('queues messages until a sink binds, asking for one, then delivers them in order', () => {
    const demand = vi.fn();
    onFeedbackDemand(demand);
    showFeedback({ kind: 'error', text: 'first' });
    showFeedback({ kind: 'success', text: 'second' });
    expect(demand).toHaveBeenCalledTimes(2);

    const shown: FeedbackEvent[] = [];
    const unbind = bindFeedbackSink({ show: (event) => shown.push(event) });
    expect(shown.map((event) => ('text' in event ? event.text : ''))).toEqual(['first', 'second']);

    showFeedback({ kind: 'notification', title: 'Notice', description: 'third' });
    expect(shown).toHaveLength(3);
    unbind();
    onFeedbackDemand(null);
  });
});
