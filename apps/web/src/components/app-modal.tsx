import { Modal, type ModalProps } from 'antd';

/** Default width of every modal (spec §9). */
export const MODAL_WIDTH_PX = 450;

/** Ant Design's Modal with the product's defaults: 450 px wide, centred, content dropped when hidden. */
export function AppModal({ width = MODAL_WIDTH_PX, centered = true, destroyOnHidden = true, ...props }: ModalProps) {
  return <Modal width={width} centered={centered} destroyOnHidden={destroyOnHidden} {...props} />;
}
