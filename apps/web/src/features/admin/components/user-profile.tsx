import type { UserDetail } from '@meridian/contracts/back-office';
import { Card, Descriptions, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../lib/time.ts';

/** The user's profile on the back office's user page: ids, contact, KYC level, 2FA, hold and state. */
export function UserProfile({ user }: { user: UserDetail }) {
  const { t, i18n } = useTranslation('admin');
  const at = (iso: string | null) => formatDateTime(iso, i18n.language);
  return (
    <Card title={t('user.profile')}>
      <Descriptions column={1} size="small">
        <Descriptions.Item label={t('users.userId')}>{user.userId}</Descriptions.Item>
        <Descriptions.Item label={t('users.email')}>{user.email}</Descriptions.Item>
        <Descriptions.Item label={t('users.name')}>{user.name ?? '—'}</Descriptions.Item>
        <Descriptions.Item label={t('users.phone')}>{user.phone ?? '—'}</Descriptions.Item>
        <Descriptions.Item label={t('users.kycLevel')}>{user.kycLevel}</Descriptions.Item>
        <Descriptions.Item label={t('users.createdAt')}>{at(user.createdAt)}</Descriptions.Item>
        <Descriptions.Item label={t('user.totp')}>{user.hasTotp ? t('common.yes') : t('common.no')}</Descriptions.Item>
        <Descriptions.Item label={t('user.withdrawHold')}>{at(user.withdrawHoldUntil)}</Descriptions.Item>
        <Descriptions.Item label={t('users.state')}>
          {user.isFrozen ? <Tag color="red">{t('users.frozen')}</Tag> : <Tag color="green">{t('users.active')}</Tag>}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
