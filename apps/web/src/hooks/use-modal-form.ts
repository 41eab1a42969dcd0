import type { ContentOf } from '@meridian/contracts/endpoint';
import { Form, type FormInstance } from 'antd';
import { useCallback, useState } from 'react';
import type { SecurityCheckEndpoint } from '../stores/modal-store.ts';
import { type SecuredAction, type SecuredActionOptions, useSecuredAction } from './use-secured-action.ts';

export interface ModalFormOptions<E extends SecurityCheckEndpoint> extends Omit<
  SecuredActionOptions<E>,
  'form' | 'refusalsShownOn' | 'onSuccess'
> {
  /** Closes the modal (its parent unmounts it). */
  onClose(): void;
  /** Runs once the call succeeded (e.g. invalidating the queries it changed). */
  onSuccess?(content: ContentOf<E>): void;
  /** Close the modal on success; otherwise `result` holds the answer, shown in place of the form. */
  isClosedOnSuccess?: boolean;
}

export interface ModalForm<Values, E extends SecurityCheckEndpoint> extends Pick<
  SecuredAction<E>,
  'isPending' | 'error' | 'fieldErrors' | 'clearErrors'
> {
  /** The modal's Ant Design form. */
  form: FormInstance<Values>;
  /** Sends the call through the security check (the hook's `run`); refusals come back to the form. */
  submit: SecuredAction<E>['run'];
  /** The successful answer while the modal shows it (`isClosedOnSuccess` false); null before. */
  result: ContentOf<E> | null;
  /** Shows a message of the caller's own above the submit button (e.g. a check made before the call). */
  setError(message: string | null): void;
  /** Resets the form, forgets the result and errors, and closes the modal. */
  close(): void;
  /** Spread on `<Form>`: the form instance, and any edit clears the refusal shown. */
  formProps: { form: FormInstance<Values>; onValuesChange(): void };
}

/**
 * The one shape of a form in a modal that sends a money or security action: one Ant Design form,
 * submit through the security check (`useSecuredAction`) with the check's pending state, the
 * server's refused fields marked on the form's fields (`fieldOf`, `fieldOfCode`) and the rest as
 * `error`, edits clearing the refusal, and on success either the answer kept as `result` or the modal
 * closed; `close` resets the form.
 */
export function useModalForm<Values, E extends SecurityCheckEndpoint>(
  options: ModalFormOptions<E>,
): ModalForm<Values, E> {
  const [form] = Form.useForm<Values>();
  const [result, setResult] = useState<ContentOf<E> | null>(null);
  const [ownError, setOwnError] = useState<string | null>(null);
  const { onClose, onSuccess, isClosedOnSuccess, ...secured } = options;
  const close = useCallback(() => {
    form.resetFields();
    setResult(null);
    onClose();
  }, [form, onClose]);
  const action = useSecuredAction<E>({
    ...secured,
    form,
    refusalsShownOn: 'form',
    onSuccess: (content) => {
      onSuccess?.(content);
      if (isClosedOnSuccess) close();
      else setResult(content);
    },
  });
  const { clearErrors: clearActionErrors, run } = action;
  const clearErrors = useCallback(() => {
    setOwnError(null);
    clearActionErrors();
  }, [clearActionErrors]);
  const submit = useCallback<SecuredAction<E>['run']>(
    (input, runOptions) => {
      setOwnError(null);
      run(input, runOptions);
    },
    [run],
  );
  return {
    form,
    submit,
    result,
    isPending: action.isPending,
    error: ownError ?? action.error,
    fieldErrors: action.fieldErrors,
    clearErrors,
    setError: setOwnError,
    close,
    formProps: { form, onValuesChange: clearErrors },
  };
}
