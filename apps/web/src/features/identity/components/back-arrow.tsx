import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Step } from './action-flow-types.ts';

/** Back arrow of a flow: shown when rollback is allowed and more than one step is open. */
export function BackArrow({ steps, onBack }: { steps: Step[]; onBack: () => void }) {
  const { t } = useTranslation('identity');
  if (steps.length < 2) return null;
  return (
    <Button
      type="text"
      icon={<ArrowLeftOutlined />}
      aria-label={t('back')}
      data-testid="flow-back"
      onClick={onBack}
      style={{ marginBottom: 8 }}
    />
  );
}
