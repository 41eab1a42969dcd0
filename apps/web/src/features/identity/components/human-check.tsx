import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type {} from 'altcha/types/react';
import { endpointPath } from '@meridian/contracts/endpoint';
import { identityEndpoints } from '@meridian/contracts/identity';
import { buildUrl } from '../../../lib/api-client.ts';

/**
 * The self-hosted human check (ALTCHA proof of work). The widget is the CSP-friendly
 * `altcha/external` build: its styles come from a CSS file and its SHA worker is a bundled file of
 * our origin, so the strict Content-Security-Policy (no inline script, workers from 'self') holds.
 * It starts solving as soon as it appears; `onToken` receives the payload for the `token` field.
 * Every token is accepted once by the server, so the form calls `reset()` after each use.
 */
export interface HumanCheckHandle {
  /** Throw the used token away and solve a fresh challenge. */
  reset(): void;
}

interface AltchaElement extends HTMLElement {
  reset(state?: string): void;
  verify(): Promise<unknown>;
}

let widgetLoaded: Promise<void> | undefined;

/** Load the widget, its translations and its SHA worker once. */
function loadWidget(): Promise<void> {
  widgetLoaded ??= (async () => {
    await import('altcha/external');
    await import('altcha/altcha.css');
    await import('altcha/i18n/zh-hk');
    const { default: ShaWorker } = await import('altcha/workers/sha?worker');
    globalThis.$altcha.algorithms.set('SHA-256', () => new ShaWorker());
  })();
  return widgetLoaded;
}

export function HumanCheck({
  onToken,
  handleRef,
}: {
  onToken: (token: string | null) => void;
  handleRef?: Ref<HumanCheckHandle>;
}) {
  const { i18n } = useTranslation();
  const element = useRef<AltchaElement | null>(null);
  const [isReady, setIsReady] = useState(false);
  const onTokenRef = useRef(onToken);
  onTokenRef.current = onToken;

  useEffect(() => {
    let isMounted = true;
    void loadWidget().then(() => isMounted && setIsReady(true));
    return () => {
      isMounted = false;
    };
  }, []);

  useEffect(() => {
    const widget = element.current;
    if (!isReady || !widget) return;
    const onState = (event: Event) => {
      const detail = (event as CustomEvent<{ state: string; payload?: string }>).detail;
      onTokenRef.current(detail.state === 'verified' && detail.payload ? detail.payload : null);
    };
    widget.addEventListener('statechange', onState);
    return () => widget.removeEventListener('statechange', onState);
  }, [isReady]);

  useImperativeHandle(handleRef, () => ({
    reset() {
      onTokenRef.current(null);
      element.current?.reset();
      void element.current?.verify();
    },
  }));

  if (!isReady)
    return (
      <div
        className="human-check"
        data-testid="human-check"
        data-state="loading"
        style={{ minHeight: 52, marginBottom: 16 }}
      />
    );
  return (
    <div className="human-check" data-testid="human-check" style={{ marginBottom: 16 }}>
      <altcha-widget
        ref={(node) => {
          element.current = node as AltchaElement | null;
        }}
        challenge={buildUrl(endpointPath(identityEndpoints.humanCheckChallenge))}
        auto="onload"
        language={i18n.language === 'zh-HK' ? 'zh-hk' : 'en'}
        configuration={JSON.stringify({ hideFooter: true, hideLogo: false, minDuration: 300 })}
      />
    </div>
  );
}
