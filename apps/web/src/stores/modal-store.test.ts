import { identityEndpoints, securityEndpoints } from '@meridian/contracts/identity';
import { walletEndpoints } from '@meridian/contracts/wallet';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAllModals, getModalState, openSecurityCheck } from './modal-store.ts';

/**
 * The security check takes the descriptor of the call it authorises: its event is
 * the descriptor's `sensitiveAction`, so no caller names it and nothing guesses it from a path.
 */
describe('openSecurityCheck', () => {
  afterEach(() => closeAllModals());

  it("takes the event from the descriptor's sensitiveAction", () => {
    openSecurityCheck({
      endpoint: walletEndpoints.withdraw,
      input: { body: { coin: 'BTC', network: 'BTC', address: 'bc1q', amount: '0.1' } },
    });
    expect(getModalState().securityCheck).toMatchObject({ event: 'WITHDRAW', endpoint: walletEndpoints.withdraw });

    openSecurityCheck({
      endpoint: walletEndpoints.addAddress,
      input: { body: { label: 'cold', network: 'BTC', address: 'bc1q' } },
    });
    expect(getModalState().securityCheck?.event).toBe('WITHDRAW_ADDRESS_ADD');

    openSecurityCheck({ endpoint: identityEndpoints.cancelAccount, input: { body: {} } });
    expect(getModalState().securityCheck?.event).toBe('ACCOUNT_CANCEL');
  });

  it("takes the caller's event for a call whose route declares none (the email change), and requires it", () => {
    openSecurityCheck({
      endpoint: securityEndpoints.changeEmail,
      event: 'EMAIL_CHANGE',
      input: { body: { email: 'a@example.com', newEmailCaptcha: '123456' } },
    });
    expect(getModalState().securityCheck?.event).toBe('EMAIL_CHANGE');

    // @ts-expect-error the descriptor declares no sensitiveAction: the caller must name the event
    openSecurityCheck({
      endpoint: securityEndpoints.changeEmail,
      input: { body: { email: 'a@example.com', newEmailCaptcha: '123456' } },
    });
  });

  it('types the input and the content by the descriptor', () => {
    openSecurityCheck({
      endpoint: walletEndpoints.withdraw,
      // @ts-expect-error a withdrawal body needs its coin, network, address and amount
      input: { body: { coin: 'BTC' } },
      onSuccess: (record) => expect(typeof record.id).toBe('string'),
    });
    expect(getModalState().securityCheck?.event).toBe('WITHDRAW');
  });
});
