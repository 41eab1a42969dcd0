import { KYC_STATUS } from '@meridian/contracts/kyc';
import { Descriptions, Spin, Tag } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../../config/paths.ts';
import { PageFrame } from '../../../components/page-frame.tsx';
import { useSelf } from '../../../lib/get-self.ts';
import { maskIdNumber, useBasicKycInfo } from '../../../lib/kyc-identity.ts';
import { RequireUser } from '../../../components/require-user.tsx';
import './account-pages.css';

/** `/my/profile`: the account as the server knows it. */
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
  const { t, i18n } = useTranslation('identity');
  const self = useSelf();
  const isVerified = self.data?.status.user.status === 1;
  const basic = useBasicKycInfo(isVerified);
  if (!self.data) return <Spin />;
  const user = self.data;
  // The verified identity (docs/kyc.md "Web"): names as submitted, the ID number masked.
  const submitted = isVerified ? basic.data?.submitted : null;
  const text = (name: string) => (typeof submitted?.[name] === 'string' ? submitted[name] : '');
  // The status values, as user/self derives them from the verification steps.
  const verification = (status: number) => {
    const [colour, key] =
      status === KYC_STATUS.VERIFIED
        ? ['green', 'profile.verified']
        : status === KYC_STATUS.UNDER_REVIEW
          ? ['blue', 'profile.underReview']
          : status === KYC_STATUS.FAILED
            ? ['red', 'profile.failed']
            : ['default', 'profile.unverified'];
    return <Tag color={colour}>{t(key)}</Tag>;
  };
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
      {submitted && (
        <Descriptions.Item label={t('profile.residence')}>
          <span data-testid="profile-residence">{regionName(text('residence'), i18n.language)}</span>{' '}
          <Link to={pathTo('IdentityResidence')} data-testid="profile-report-residence">
            {t('profile.reportResidence')}
          </Link>
        </Descriptions.Item>
      )}
      <Descriptions.Item label={t('profile.investor')}>{verification(user.status.investor.status)}</Descriptions.Item>
      <Descriptions.Item label={t('profile.since')}>
        {dayjs(user.createdAt).format('YYYY-MM-DD HH:mm')}
      </Descriptions.Item>
    </Descriptions>
  );
}

/** A country's name in the user's language from its ISO 3166-1 alpha-2 code (the browser's CLDR data). */
function regionName(code: string, locale: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return code;
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
