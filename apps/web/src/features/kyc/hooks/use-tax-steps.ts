import { useQueryClient } from '@tanstack/react-query';
import type { FormInstance } from 'antd';
import { isSuccess } from '../../../lib/api-client.ts';
import { kycKeys } from '../api/basic-kyc.ts';
import { fileTaxForm } from '../api/file-tax-form.ts';
import { applyNestedServerErrors } from '../lib/server-field-errors.ts';
import { TAX_FORM_ROOTS, taxFormBody, type TaxFormKind, type TaxPageValues } from '../lib/tax-form.ts';
import { useStepState } from './use-step-state.ts';

/**
 * The tax form's steps (the step state of {@link useStepState}) and its sends: `next` checks the
 * US-person answers (step 1) or the fields of the form they decide, `kind` (step 2: the W-9's TIN or
 * the W-8BEN's residences); `submit` files the form, keeps the answer in the query cache and calls
 * `onDone`, or marks the refused fields and goes back to step 2 (to step 1 when no form is decided).
 */
export function useTaxSteps(form: FormInstance<TaxPageValues>, kind: TaxFormKind | null, onDone: () => void) {
  const queryClient = useQueryClient();
  const steps = useStepState();
  const { current, setCurrent, setError, setIsBusy } = steps;

  const next = async () => {
    setError(null);
    try {
      if (current === 0) await form.validateFields(['isUsCitizen', 'isUsResident', 'isUsBorn']);
      else await form.validateFields(kind?.form === 'W9' ? ['tin'] : [['residences']], { recursive: true });
    } catch {
      return;
    }
    setCurrent(current + 1);
  };

  const submit = async () => {
    setError(null);
    const body = taxFormBody(form.getFieldsValue(true) as TaxPageValues);
    if (!body) {
      setCurrent(0);
      return;
    }
    setIsBusy(true);
    const response = await fileTaxForm(body);
    setIsBusy(false);
    if (isSuccess(response)) {
      queryClient.setQueryData(kycKeys.tax, response.content);
      onDone();
      return;
    }
    const { message, failing } = applyNestedServerErrors(form, response, TAX_FORM_ROOTS);
    setError(message);
    if (failing.length > 0) setCurrent(1);
  };

  return { ...steps, next, submit };
}
