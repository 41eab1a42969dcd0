import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { AntdConfig } from '../../components/antd-config.tsx';
import { PageFallback } from './boot-fallback.tsx';

/** Layout route of the back office (`/admin`): the pages below render inside Ant Design's configuration. */
export function AntdScope() {
  return (
    <AntdConfig>
      <Suspense fallback={<PageFallback />}>
        <Outlet />
      </Suspense>
    </AntdConfig>
  );
}
