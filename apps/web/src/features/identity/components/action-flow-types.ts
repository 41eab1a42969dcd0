import type { ActionFlow, LoginHandoff } from '../../../stores/modal-store.ts';

/** What the action modal hands to its body (`ActionFlowSlot`) and the body to each flow. */
export interface ActionFlowSlotProps {
  flow: ActionFlow;
  /** Where to go after a successful login. */
  returnTo?: string;
  /** Switch the modal to another flow (Login → Recover, Register → Login), with what a finished flow hands on. */
  onFlowChange: (flow: ActionFlow, handoff?: LoginHandoff) => void;
  /** Given to the Login flow after Register or Recover: the email to fill in and the message to show. */
  handoff?: LoginHandoff;
  /** Close the modal (after success, or when the flow is abandoned). */
  onDone: () => void;
}

/** The steps of the flows: Login is Form → Verify; Register and Recover are Mail → Verify → Password. */
export type Step = 'form' | 'mail' | 'verify' | 'password';
