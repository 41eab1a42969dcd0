import type { ContentOf, EndpointInput } from '@meridian/contracts/endpoint';
import type { Envelope } from '@meridian/contracts/envelope';
import type { CaptchaEvent } from '@meridian/contracts/security';
import type { FormInstance } from 'antd';
import { useCallback, useRef, useState } from 'react';
import { refusedFields } from '../lib/contract-errors.ts';
import { STATUS_CAPTCHA_FAILED } from '../lib/form-errors.ts';
import {
  closeSecurityCheck,
  getModalState,
  openSecurityCheck,
  type OpenSecurityCheck,
  type SecurityCheckEndpoint,
  type SecurityCheckRequest,
  useModalState,
} from '../stores/modal-store.ts';

/** The factors the security check itself asks for: a refusal naming one stays in the check. */
const FACTOR_FIELDS: ReadonlySet<string> = new Set(['emailCaptcha', 'mfaCode', 'securityPassword']);

/** A refused action as the caller's `onRefusal` sees it. */
export interface SecuredRefusal {
  /** The business code (119: a factor was wrong, and the check closed itself). */
  statusCode: number;
  /** The server's message, in the user's language. */
  message: string;
  /** The whole answer. */
  response: Envelope<unknown>;
}

export interface SecuredActionOptions<E extends SecurityCheckEndpoint> {
  /** The call, by its descriptor: the check asks for the factors of its `sensitiveAction`. */
  endpoint: E;
  /** The captcha event, only for a descriptor without `sensitiveAction` (its service checks the factors). */
  event?: CaptchaEvent;
  /** No generic success toast: the caller shows its own result. */
  quietSuccess?: boolean;
  /** Runs once the call succeeded (the check has closed). */
  onSuccess?(content: ContentOf<E>): void;
  /**
   * Where the action's own refusals are shown. `check` (default): in the security check, which stays
   * open for another try. `form`: the check closes and the refusal comes back to the caller's form —
   * the fields it names in `fieldErrors` (and on `form`), anything else in `error`.
   */
  refusalsShownOn?: 'check' | 'form';
  /** The form field a refused field is shown on (dotted paths; default: the same name); undefined: shown in `error`. */
  fieldOf?(field: string): string | undefined;
  /** Business codes the form shows on one field rather than in `error` (e.g. 210 on `kind`). */
  fieldOfCode?: Partial<Record<number, string>>;
  /** The Ant Design form whose fields are marked with `fieldErrors` (dotted names become paths). */
  form?: FormInstance;
  /** Runs on every refusal, after the hook has shown it (e.g. a message of its own for 119). */
  onRefusal?(refusal: SecuredRefusal): void;
}

export interface RunOptions {
  /**
   * The `Idempotency-Key` of an idempotent descriptor (`isIdempotent`): pass one key per opening of a
   * form (or a natural key such as a quote id) so a retry never acts twice; default: a new key per run.
   */
  idempotencyKey?: string;
}

export interface SecuredAction<E extends SecurityCheckEndpoint> {
  /** Opens the security check; once the factors are entered, it sends `input` through the descriptor. */
  run(input: EndpointInput<E>, options?: RunOptions): void;
  /** True from `run` until the check closes (success, refusal shown on the form, cancel). */
  isPending: boolean;
  /** A refusal shown on the form that names no field of it (`refusalsShownOn: 'form'`). */
  error: string | null;
  /** Refused fields by form field name (dotted), each with its message. */
  fieldErrors: Readonly<Record<string, string>>;
  /** Forgets `error` and `fieldErrors` (the user changed the form). */
  clearErrors(): void;
}

type Placed = { fieldErrors: Record<string, string>; error: string | null };

/** Sorts a refusal into form fields and one message (the factors' refusals stay in the check: null). */
function placeRefusal<E extends SecurityCheckEndpoint>(
  response: Envelope<unknown>,
  options: SecuredActionOptions<E>,
): Placed | null {
  const fieldOf = options.fieldOf ?? ((field: string) => field);
  const refused = refusedFields(response.statusCode, response.content).filter(({ field }) => !FACTOR_FIELDS.has(field));
  const codeField = options.fieldOfCode?.[response.statusCode];
  if (refused.length === 0 && codeField) return { fieldErrors: { [codeField]: response.message }, error: null };
  if (refused.length === 0) {
    const isAboutFactors = refusedFields(response.statusCode, response.content).length > 0;
    return isAboutFactors ? null : { fieldErrors: {}, error: response.message };
  }
  const placed: Placed = { fieldErrors: {}, error: null };
  for (const { field, message } of refused) {
    const name = fieldOf(field);
    if (name === undefined) placed.error = placed.error ? `${placed.error} ${message}` : message;
    else placed.fieldErrors[name] = placed.fieldErrors[name] ? `${placed.fieldErrors[name]} ${message}` : message;
  }
  return placed;
}

/**
 * The one way a page sends a money or security action through the security check (verification
 * codes, authenticator, trading password): `run(input)` opens the check with the call's descriptor,
 * which adds the factors and sends it; success runs `onSuccess`. A wrong factor (119) closes the
 * check; cancelling it ends `isPending`. With `refusalsShownOn: 'form'` a refusal of the action
 * itself closes the check and is returned as `fieldErrors` / `error` (and marked on `form`).
 */
export function useSecuredAction<E extends SecurityCheckEndpoint>(options: SecuredActionOptions<E>): SecuredAction<E> {
  const [opened, setOpened] = useState<OpenSecurityCheck | null>(null);
  const [placed, setPlaced] = useState<Placed>({ fieldErrors: {}, error: null });
  const latest = useRef(options);
  latest.current = options;
  const current = useModalState().securityCheck;

  const onFailure = useCallback((statusCode: number, response: Envelope<unknown>) => {
    const settings = latest.current;
    if (statusCode !== STATUS_CAPTCHA_FAILED && settings.refusalsShownOn === 'form') {
      const refusal = placeRefusal(response, settings);
      if (refusal) {
        closeSecurityCheck();
        setPlaced(refusal);
        settings.form?.setFields(
          Object.entries(refusal.fieldErrors).map(([name, message]) => ({ name: name.split('.'), errors: [message] })),
        );
      }
    }
    settings.onRefusal?.({ statusCode, message: response.message, response });
  }, []);

  const run = useCallback(
    (input: EndpointInput<E>, runOptions: RunOptions = {}) => {
      const { endpoint, event, quietSuccess } = latest.current;
      setPlaced({ fieldErrors: {}, error: null });
      const request = {
        endpoint,
        input,
        ...(endpoint.isIdempotent && {
          headers: { 'Idempotency-Key': runOptions.idempotencyKey ?? crypto.randomUUID() },
        }),
        quietSuccess,
        event,
        onSuccess: (content: ContentOf<E>) => latest.current.onSuccess?.(content),
        onFailure,
      } as SecurityCheckRequest<E>;
      openSecurityCheck(request);
      setOpened(getModalState().securityCheck);
    },
    [onFailure],
  );

  const clearErrors = useCallback(() => setPlaced({ fieldErrors: {}, error: null }), []);
  return {
    run,
    isPending: opened !== null && current === opened,
    error: placed.error,
    fieldErrors: placed.fieldErrors,
    clearErrors,
  };
}
