import { backOfficeUserEndpoints, type UserDetail } from '@meridian/contracts/back-office';
import { Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFreezeUser } from '../api/freeze-user.ts';
import { useResetUserTotp } from '../api/reset-user-totp.ts';
import { useUnfreezeUser } from '../api/unfreeze-user.ts';
import { useMayCall } from './operator-context.tsx';
import { ReasonModal } from './reason-modal.tsx';

type UserAction = 'freeze' | 'unfreeze' | 'resetTotp';

/** The account actions (freeze, unfreeze, reset 2FA), each behind a reason modal, shown by role. */
export function UserActions({ user }: { user: UserDetail }) {
  const { t } = useTranslation('admin');
  const [action, setAction] = useState<UserAction | null>(null);
  const freeze = useFreezeUser();
  const unfreeze = useUnfreezeUser();
  const resetTotp = useResetUserTotp();
  const mayFreeze = useMayCall(backOfficeUserEndpoints.freezeUser);
  const mayUnfreeze = useMayCall(backOfficeUserEndpoints.unfreezeUser);
  const mayResetTotp = useMayCall(backOfficeUserEndpoints.resetUserTotp);
  const mutation = { freeze, unfreeze, resetTotp }[action ?? 'freeze'];

  return (
    <Space>
      {mayFreeze && !user.isFrozen && (
        <Button danger onClick={() => setAction('freeze')}>
          {t('user.freeze')}
        </Button>
      )}
      {mayUnfreeze && user.isFrozen && <Button onClick={() => setAction('unfreeze')}>{t('user.unfreeze')}</Button>}
      {mayResetTotp && user.hasTotp && <Button onClick={() => setAction('resetTotp')}>{t('user.resetTotp')}</Button>}
      <ReasonModal
        open={action !== null}
        title={action ? t(`user.${action}Title`) : ''}
        okText={action ? t(`user.${action}`) : ''}
        isDanger={action === 'freeze'}
        isPending={mutation.isPending}
        onCancel={() => setAction(null)}
        onSubmit={async (reason) => {
          await mutation.mutateAsync({ userId: user.userId, reason });
          setAction(null);
        }}
      />
    </Space>
  );
}
