import { Flex, Typography } from 'antd';
import type { ReactNode } from 'react';

/** A back-office page's heading (an h1) with its actions on the right. */
export function PageTitle({ children, extra }: { children: ReactNode; extra?: ReactNode }) {
  return (
    <Flex justify="space-between" align="center" style={{ marginBottom: 16 }} gap={16} wrap>
      <Typography.Title level={1} style={{ margin: 0, fontSize: 22 }}>
        {children}
      </Typography.Title>
      {extra}
    </Flex>
  );
}
