import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCancelWithdrawal } from '../api/cancel-withdrawal.ts';

/** Cancel of a withdrawal still waiting (status 0), in the withdrawal history's row. */
export function RecordCancelButton({ recordId }: { recordId: string }) {
  const { t } = useTranslation('wallet');
  const cancel = useCancelWithdrawal();
  return (
    <Button size="small" onClick={() => cancel.mutate(recordId)} data-testid="record-cancel">
      {t('history.cancel')}
    </Button>
  );
}
