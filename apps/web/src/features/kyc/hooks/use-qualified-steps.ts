import { useQueryClient } from '@tanstack/react-query';
import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { isSuccess } from '../../../lib/api-client.ts';
import { applyQualified } from '../api/apply-qualified.ts';
import { QUALIFICATION_QUERY_KEY } from '../api/qualification.ts';
import { QUALIFIED_FORM_ROOTS, type QualifyValues, qualifyBodyOf } from '../lib/qualified-form.ts';
import { applyNestedServerErrors } from '../lib/server-field-errors.ts';
import { useStepState } from './use-step-state.ts';

/**
 * The qualified-investor form's steps (the step state of {@link useStepState}) and its sends: `next`
 * checks the declaration's fields (step 1) or that an evidence file is uploaded (step 2, `hasEvidence`);
 * `submit` sends the application and keeps the answer in the query cache, or marks the refused
 * fields and goes back to the declaration.
 */
export function useQualifiedSteps(form: FormInstance<QualifyValues>, hasEvidence: boolean) {
  const { t } = useTranslation('kyc');
  const queryClient = useQueryClient();
  const steps = useStepState();
  const { current, setCurrent, setError, setIsBusy } = steps;

  const next = async () => {
    setError(null);
    if (current === 0) {
      try {
        await form.validateFields(['type', 'portfolioHkd', 'totalAssetsHkd', 'isDeclared']);
      } catch {
        return;
      }
    }
    if (current === 1 && !hasEvidence) {
      setError(t('basic.missingDocument'));
      return;
    }
    setCurrent(current + 1);
  };

  const submit = async () => {
    setError(null);
    const body = qualifyBodyOf(form.getFieldsValue(true) as QualifyValues);
    setIsBusy(true);
    const response = await applyQualified(body);
    setIsBusy(false);
    if (isSuccess(response)) {
      queryClient.setQueryData(QUALIFICATION_QUERY_KEY, response.content);
      return;
    }
    const { message, failing } = applyNestedServerErrors(form, response, QUALIFIED_FORM_ROOTS);
    setError(message);
    if (failing.length > 0) setCurrent(0);
  };

  return { ...steps, next, submit };
}
