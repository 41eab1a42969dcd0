import { Modal, type ModalProps } from 'antd';
import type { ReactNode } from 'react';

/** Default width of every modal. */
export const MODAL_WIDTH_PX = 450;

export interface AppModalProps extends ModalProps {
  /**
   * The dialog's accessible name when it shows no title (e.g. the Login/Register tabs are its
   * heading): screen readers announce it on opening (axe aria-dialog-name). Ignored with a title,
   * which names the dialog itself.
   */
  accessibleName?: string;
}

/**
 * Ant Design's Modal with the product's defaults: 450 px wide, centred, content dropped when
 * hidden. Keyboard: focus moves into the dialog and stays there, Escape closes it, and focus goes
 * back to the element that opened it (Ant Design's `focusTriggerAfterClose`, kept on).
 */
export function AppModal({
  width = MODAL_WIDTH_PX,
  centered = true,
  destroyOnHidden = true,
  accessibleName,
  title,
  ...props
}: AppModalProps) {
  const modalRender =
    !title && accessibleName
      ? (node: ReactNode) => <DialogName name={accessibleName}>{node}</DialogName>
      : props.modalRender;
  return (
    <Modal
      width={width}
      centered={centered}
      destroyOnHidden={destroyOnHidden}
      title={title}
      {...props}
      modalRender={modalRender}
    />
  );
}

/** Names the enclosing `role="dialog"` element, which Ant Design renders without a name when it has no title. */
function DialogName({ name, children }: { name: string; children: ReactNode }) {
  return (
    <div
      style={{ display: 'contents' }}
      ref={(element) => {
        element?.closest('[role="dialog"]')?.setAttribute('aria-label', name);
      }}
    >
      {children}
    </div>
  );
}
