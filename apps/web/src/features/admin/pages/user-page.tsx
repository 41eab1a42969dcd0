import { Alert, Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useUser } from '../api/show-user.ts';
import { AdminSpinner } from '../components/admin-spinner.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { QueryError } from '../components/query-error.tsx';
import { UserActions } from '../components/user-actions.tsx';
import { UserNotes } from '../components/user-notes.tsx';
import { UserProfile } from '../components/user-profile.tsx';
import {
  UserBalances,
  UserHistory,
  UserMessages,
  UserSessions,
  UserVerification,
} from '../components/user-records.tsx';
import { formatDateTime } from '../lib/time.ts';

/**
 * `/admin/users/:userId`: profile, verification, balances, sessions, history, messages and notes,
 * with the account actions the operator's role allows.
 */
export function UserPage() {
  const { t, i18n } = useTranslation('admin');
  const { userId = '' } = useParams();
  const user = useUser(userId);

  if (user.isPending) return <AdminSpinner />;
  if (user.isError) return <QueryError error={user.error} onRetry={() => void user.refetch()} />;
  const data = user.data;

  return (
    <>
      <PageTitle extra={<UserActions user={data} />}>{data.email}</PageTitle>
      {data.isFrozen && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('user.frozenBanner', { at: formatDateTime(data.frozenAt, i18n.language) })}
          description={data.frozenReason}
        />
      )}
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <UserProfile user={data} />
        </Col>
        <Col xs={24} xl={12}>
          <UserVerification user={data} />
          <UserBalances user={data} />
        </Col>
        <Col span={24}>
          <UserHistory user={data} />
        </Col>
        <Col xs={24} xl={12}>
          <UserSessions user={data} />
          <UserMessages user={data} />
        </Col>
        <Col xs={24} xl={12}>
          <UserNotes user={data} />
        </Col>
      </Row>
    </>
  );
}
