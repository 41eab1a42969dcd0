import { setLoginExpiredHandler } from '../lib/api-client.ts';
import { onFeedbackDemand } from '../lib/feedback.ts';
import { clearSession } from '../lib/session.ts';
import { getModalState, openActionModal } from '../stores/modal-store.ts';
import { requestOverlayHost } from '../stores/overlay-host-store.ts';

/**
 * Connects the framework-free services to the app: messages mount the overlay host, and an expired
 * login (101) forgets the user and opens the login modal once, carrying where the user was.
 */
export function wireAppServices(): void {
  onFeedbackDemand(requestOverlayHost);
  setLoginExpiredHandler(({ returnTo }) => {
    clearSession();
    if (getModalState().action?.flow === 'login') return;
    openActionModal('login', { returnTo });
  });
}
