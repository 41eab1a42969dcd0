import type { BasicKycDraft } from '@meridian/contracts/kyc';
import { useQueryClient } from '@tanstack/react-query';
import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { isSuccess } from '../../../lib/api-client.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { commitBasicKyc, kycKeys, saveBasicDraft } from '../api/basic-kyc.ts';
import { BASIC_FIELDS, BASIC_STEPS, DOCUMENTS_STEP, draftOf, firstFailingStep } from '../lib/basic-kyc-steps.ts';
import { useStepState } from './use-step-state.ts';

/**
 * The basic KYC form's steps (the step state of {@link useStepState}) and its two sends:
 * `saveAndContinue` checks the step's fields (and, on the documents step, that no document of
 * `missingKinds` is missing), saves the draft and moves on; `submit` commits the draft and, when the
 * server refuses fields, marks them and goes back to the first step holding one.
 */
export function useBasicKycSteps(form: FormInstance<BasicKycDraft>, missingKinds: readonly string[]) {
  const { t } = useTranslation('kyc');
  const queryClient = useQueryClient();
  const steps = useStepState();
  const { current, setCurrent, setError, setIsBusy } = steps;

  const saveAndContinue = async () => {
    setError(null);
    try {
      await form.validateFields([...BASIC_STEPS[current]!.fields]);
    } catch {
      return;
    }
    if (current === DOCUMENTS_STEP && missingKinds.length > 0) {
      setError(t('basic.missingDocument'));
      return;
    }
    setIsBusy(true);
    const response = await saveBasicDraft(draftOf(form.getFieldsValue(BASIC_FIELDS) as Record<string, unknown>));
    setIsBusy(false);
    if (!isSuccess(response)) {
      setError(applyServerErrors(form, response, BASIC_FIELDS));
      return;
    }
    queryClient.setQueryData(kycKeys.basic, response.content);
    setCurrent(current + 1);
  };

  const submit = async () => {
    setError(null);
    setIsBusy(true);
    const response = await commitBasicKyc();
    setIsBusy(false);
    if (isSuccess(response)) {
      queryClient.setQueryData(kycKeys.basic, response.content);
      return;
    }
    setError(applyServerErrors(form, response, BASIC_FIELDS));
    // Go back to the first step with a field the server refused.
    const failing = form
      .getFieldsError()
      .filter((field) => field.errors.length > 0)
      .map((field) => String(field.name[0]));
    const stepIndex = firstFailingStep(failing);
    if (stepIndex >= 0) setCurrent(stepIndex);
  };

  return { ...steps, saveAndContinue, submit };
}
