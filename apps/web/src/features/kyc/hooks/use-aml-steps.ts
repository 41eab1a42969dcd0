import { useQueryClient } from '@tanstack/react-query';
import type { FormInstance } from 'antd';
import { isSuccess } from '../../../lib/api-client.ts';
import { answerAml } from '../api/answer-aml.ts';
import { kycKeys } from '../api/basic-kyc.ts';
import { AML_FORM_ROOTS, AML_STEPS, type AmlValues, amlAnswersOf, amlStepOf } from '../lib/aml-answers.ts';
import { applyNestedServerErrors } from '../lib/server-field-errors.ts';
import { useStepState } from './use-step-state.ts';

/**
 * The AML questionnaire's steps (the step state of {@link useStepState}) and its sends: `next`
 * checks the step's fields and moves on (nothing is saved before the end); `submit` sends the
 * answers to `investor/aml`, keeps the outcome in the query cache and calls `onDone`, or marks the
 * refused fields and goes back to the step of the first one.
 */
export function useAmlSteps(form: FormInstance<AmlValues>, onDone: () => void) {
  const queryClient = useQueryClient();
  const steps = useStepState();
  const { current, setCurrent, setError, setIsBusy } = steps;

  const next = async () => {
    setError(null);
    try {
      await form.validateFields([...AML_STEPS[current]!.fields]);
    } catch {
      return;
    }
    setCurrent(current + 1);
  };

  const submit = async () => {
    setError(null);
    const answers = amlAnswersOf(form.getFieldsValue(true) as AmlValues);
    setIsBusy(true);
    const response = await answerAml(answers);
    setIsBusy(false);
    if (isSuccess(response)) {
      queryClient.setQueryData(kycKeys.aml, response.content);
      onDone();
      return;
    }
    const { message, failing } = applyNestedServerErrors(form, response, AML_FORM_ROOTS);
    setError(message);
    const first = failing[0];
    if (first) {
      const stepIndex = amlStepOf(String(first[0]));
      if (stepIndex >= 0) setCurrent(stepIndex);
    }
  };

  return { ...steps, next, submit };
}
