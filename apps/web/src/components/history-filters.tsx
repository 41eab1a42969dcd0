import { Button, Form, type FormInstance, Modal, Space } from 'antd';
import { type ReactNode, useState } from 'react';

/** The texts of the filter controls, in the page's language. */
export interface HistoryFilterLabels {
  filter: string;
  reset: string;
  submit: string;
}

export interface HistoryFiltersProps<Values> {
  form: FormInstance<Values>;
  /** The `Form.Item`s of the page (coin, date range, status …). */
  fields: ReactNode;
  /** Called with the form's values on submit, and with `{}` on reset (desktop). */
  onApply: (values: Values) => void;
  isMobile: boolean;
  labels: HistoryFilterLabels;
  /** Prefix of the controls' test ids: `${prefix}-open`, `${prefix}-reset`, `${prefix}-submit`. */
  testIdPrefix: string;
}

/**
 * The filters of a history page: an inline form with submit and reset on
 * desktop; on mobile a Filter button opening a modal with reset and submit. Shared by the wallet,
 * swap, fund and loan histories so they behave alike.
 */
export function HistoryFilters<Values>({
  form,
  fields,
  onApply,
  isMobile,
  labels,
  testIdPrefix,
}: HistoryFiltersProps<Values>) {
  const [isOpen, setIsOpen] = useState(false);
  const apply = (values: Values) => {
    setIsOpen(false);
    onApply(values);
  };

  if (!isMobile) {
    return (
      <Form form={form} layout="inline" onFinish={apply} style={{ marginBottom: 16, rowGap: 8 }}>
        {fields}
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" data-testid={`${testIdPrefix}-submit`}>
              {labels.submit}
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                apply({} as Values);
              }}
              data-testid={`${testIdPrefix}-reset`}
            >
              {labels.reset}
            </Button>
          </Space>
        </Form.Item>
      </Form>
    );
  }

  return (
    <>
      <Button onClick={() => setIsOpen(true)} data-testid={`${testIdPrefix}-open`} style={{ marginBottom: 12 }}>
        {labels.filter}
      </Button>
      <Modal
        open={isOpen}
        title={labels.filter}
        onCancel={() => setIsOpen(false)}
        footer={
          <Space>
            <Button onClick={() => form.resetFields()} data-testid={`${testIdPrefix}-reset`}>
              {labels.reset}
            </Button>
            <Button type="primary" onClick={() => apply(form.getFieldsValue())} data-testid={`${testIdPrefix}-submit`}>
              {labels.submit}
            </Button>
          </Space>
        }
      >
        <Form form={form} layout="vertical">
          {fields}
        </Form>
      </Modal>
    </>
  );
}
