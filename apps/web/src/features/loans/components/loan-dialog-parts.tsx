import { Alert, Button, Result, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';

/** A loan dialog's success: its title, the figure it changed and Done (`testId` on the button). */
export function LoanDone({
  title,
  subTitle,
  onDone,
  testId,
}: {
  title: string;
  subTitle: string;
  onDone: () => void;
  testId: string;
}) {
  const { t } = useTranslation('loans');
  return (
    <Result
      status="success"
      title={title}
      subTitle={subTitle}
      extra={
        <Button type="primary" onClick={onDone} data-testid={testId}>
          {t('borrow.done')}
        </Button>
      }
    />
  );
}

/** The quote of a loan dialog while it is asked: the refusal (`testId`), or a skeleton while it loads. */
export function QuoteState({
  error,
  isLoading,
  rows,
  testId,
}: {
  error: string | null;
  isLoading: boolean;
  rows: number;
  testId: string;
}) {
  if (error) return <Alert type="warning" showIcon message={error} style={{ marginBottom: 12 }} data-testid={testId} />;
  return isLoading ? <Skeleton active paragraph={{ rows }} /> : null;
}
