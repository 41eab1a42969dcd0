import { Spin } from 'antd';

/** The back office's loading state: a centred spinner. */
export function AdminSpinner() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', padding: 48 }}>
      <Spin />
    </div>
  );
}
