import { Button } from 'antd';
import { useCallback, useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';

/** Seconds of the send-code countdown. */
export const CODE_COUNTDOWN_SECONDS = 59;

export type SendCodeState = 'initial' | 'counting' | 'ended';

/** Control of the button from its form: start the countdown (after a send elsewhere) or reset it. */
export interface SendCodeHandle {
  /** Count down from `seconds` (default CODE_COUNTDOWN_SECONDS), e.g. the server's retry time of a refused send. */
  start(seconds?: number): void;
  reset(): void;
}

export interface SendCodeButtonProps {
  /** Sends the code; resolves to the answer's status code (200 on success). */
  onSend: () => Promise<number>;
  /** Called with the status code when a send fails. */
  onFailure?: (statusCode: number) => void;
  handleRef?: Ref<SendCodeHandle>;
  /** Start counting at mount, without sending (the security check sends on show). */
  isStartedOnMount?: boolean;
  /** `data-testid` of the button; `send-code` unless a page shows two senders at once. */
  testId?: string;
}

/**
 * The send-code button: initial (send) → counting (seconds left, disabled) → ended
 * (resend). Starting begins a 1-second tick; a failed send ends the countdown at once.
 */
export function SendCodeButton({
  onSend,
  onFailure,
  handleRef,
  isStartedOnMount = false,
  testId = 'send-code',
}: SendCodeButtonProps) {
  const { t } = useTranslation('identity');
  const [state, setState] = useState<SendCodeState>('initial');
  const [secondsLeft, setSecondsLeft] = useState(CODE_COUNTDOWN_SECONDS);
  const [isSending, setIsSending] = useState(false);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);

  const stop = useCallback(() => {
    if (timer.current) clearInterval(timer.current);
    timer.current = null;
  }, []);
  const start = useCallback(
    (seconds: number = CODE_COUNTDOWN_SECONDS) => {
      stop();
      setState('counting');
      setSecondsLeft(seconds);
      timer.current = setInterval(() => {
        setSecondsLeft((left) => {
          if (left <= 1) {
            stop();
            setState('ended');
            return 0;
          }
          return left - 1;
        });
      }, 1000);
    },
    [stop],
  );
  const reset = useCallback(() => {
    stop();
    setState('initial');
    setSecondsLeft(CODE_COUNTDOWN_SECONDS);
  }, [stop]);

  useImperativeHandle(handleRef, () => ({ start, reset }), [start, reset]);
  useEffect(() => {
    if (isStartedOnMount) start(CODE_COUNTDOWN_SECONDS);
    return stop;
  }, [isStartedOnMount, start, stop]);

  const send = async () => {
    setIsSending(true);
    start(CODE_COUNTDOWN_SECONDS);
    const statusCode = await onSend();
    setIsSending(false);
    if (statusCode !== 200) {
      stop();
      setState('ended');
      onFailure?.(statusCode);
    }
  };

  return (
    <Button data-testid={testId} disabled={state === 'counting'} loading={isSending} onClick={() => void send()}>
      {state === 'counting'
        ? t('sendCode.counting', { seconds: secondsLeft })
        : state === 'ended'
          ? t('sendCode.resend')
          : t('sendCode.send')}
    </Button>
  );
}
