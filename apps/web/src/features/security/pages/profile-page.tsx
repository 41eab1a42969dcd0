import { Descriptions, Spin, Tag } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../../components/page-frame.tsx';
import { useSelf } from '../../../lib/get-self.ts';
import { maskIdNumber, useBasicKycInfo } from '../../../lib/kyc-identity.ts';
import { RequireUser } from '../../../components/require-user.tsx';
import './account-pages.css';

/** `/my/profile`: the account as the server knows it (spec §3 user state). */
export function ProfilePage() {
  return (
    <RequireUser>
      <PageFrame>
        <div className="content-card" data-testid="profile-page">
          <Profile />
        </div>
      </PageFrame>
    </RequireUser>
  );
}

function Profile() {
  const { t } = useTranslation('identity');
  const self = useSelf();
  const isVerified = self.data?.status.user.status === 1;
  const basic = useBasicKycInfo(isVerified);
  if (!self.data) return <Spin />;
  const user = self.data;
  // The verified identity (issue 15 "Web" item 5): names as submitted, the ID number masked.
  const submitted = isVerified ? basic.data?.submitted : null;
  const text = (name: string) => (typeof submitted?.[name] === 'string' ? submitted[name] : '');
  const verification = (status: number) => (
    <Tag color={status === 1 ? 'green' : 'default'}>
      {status === 1 ? t('profile.verified') : t('profile.unverified')}
    </Tag>
  );
  return (
    <Descriptions column={1} bordered size="middle" className="profile-descriptions">
      <Descriptions.Item label={t('profile.uid')}>{user.uid}</Descriptions.Item>
      <Descriptions.Item label={t('fields.email')}>
        <span data-testid="profile-email">{user.email}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('security.mobile')}>{user.mobile ?? '—'}</Descriptions.Item>
      <Descriptions.Item label={t('profile.basic')}>{verification(user.status.user.status)}</Descriptions.Item>
      {submitted && (
        <Descriptions.Item label={t('profile.verifiedName')}>
          <span data-testid="profile-verified-name">{`${text('firstName')} ${text('lastName')}`.trim()}</span>
        </Descriptions.Item>
      )}
      {submitted && (
        <Descriptions.Item label={t('profile.idNumber')}>
          <span data-testid="profile-id-number">{maskIdNumber(text('idNumber'))}</span>
        </Descriptions.Item>
      )}
      <Descriptions.Item label={t('profile.investor')}>{verification(user.status.investor.status)}</Descriptions.Item>
      <Descriptions.Item label={t('profile.since')}>
        {dayjs(user.createdAt).format('YYYY-MM-DD HH:mm')}
      </Descriptions.Item>
    </Descriptions>
  );
}
