import type { ActionFlowSlotProps } from './action-flow-types.ts';
import { EmailFlow } from './email-flow.tsx';
import { LoginFlow } from './login-flow.tsx';

export type { ActionFlowSlotProps } from './action-flow-types.ts';

/**
 * The body of the action modal: Login (Form → optional Verify), Register and Recover
 * (Mail → Verify → Password). Each flow is its own component, so switching flows starts afresh.
 */
export function ActionFlowSlot(props: ActionFlowSlotProps) {
  if (props.flow === 'login') return <LoginFlow key="login" {...props} />;
  return <EmailFlow key={props.flow} {...props} flow={props.flow} />;
}
