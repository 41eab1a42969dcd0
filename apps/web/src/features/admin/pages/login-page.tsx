import type { OperatorSession } from '@meridian/contracts/back-office';
import { Alert, Button, Card, Flex, Form, Input, Typography } from 'antd';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { colourVar } from '../../../styles/colour-tokens.ts';
import { useEnrolTotp } from '../api/enrol-totp.ts';
import { type SignInInput, useSignIn } from '../api/sign-in.ts';
import { LanguageSelect } from '../components/language-select.tsx';
import { ADMIN_PATHS, LOGIN_REASON_EXPIRED, LOGIN_REASON_PARAM } from '../lib/admin-paths.ts';

const CODE_PATTERN = /^\d{6}$/;

/** The enrolment step of a first sign-in: scan the QR code (or type the secret), then confirm a code. */
function EnrolTotpStep({
  enrolment,
  onDone,
}: {
  enrolment: NonNullable<OperatorSession['totpEnrolment']>;
  onDone: () => void;
}) {
  const { t } = useTranslation('admin');
  const enrol = useEnrolTotp();
  const onFinish = async ({ totpCode }: { totpCode: string }) => {
    try {
      const session = await enrol.mutateAsync(totpCode);
      if (session.state === 'signedIn') onDone();
    } catch {
      // The HTTP client shows the refusal; the operator types the next code.
    }
  };
  return (
    <>
      <Typography.Title level={2} style={{ fontSize: 18 }}>
        {t('login.enrolTitle')}
      </Typography.Title>
      <Typography.Paragraph>{t('login.enrolIntro')}</Typography.Paragraph>
      <Flex justify="center" style={{ marginBottom: 16 }}>
        <QRCodeSVG value={enrolment.otpauthUri} size={180} title={t('login.qrTitle')} data-testid="admin-totp-qr" />
      </Flex>
      <Typography.Paragraph>
        {t('login.secretLabel')}{' '}
        <Typography.Text code copyable data-testid="admin-totp-secret">
          {enrolment.secret}
        </Typography.Text>
      </Typography.Paragraph>
      <Form layout="vertical" onFinish={(values: { totpCode: string }) => void onFinish(values)} requiredMark={false}>
        <Form.Item
          name="totpCode"
          label={t('login.code')}
          rules={[{ required: true, pattern: CODE_PATTERN, message: t('login.codeInvalid') }]}
        >
          <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={enrol.isPending}>
          {t('login.confirmEnrol')}
        </Button>
      </Form>
    </>
  );
}

/**
 * `/admin/login`: email, password and the 6-digit authenticator code. At the first sign-in the
 * answer asks for enrolment, shown as a second step; then the dashboard opens. After a session
 * ended through inactivity the page says so.
 */
export function AdminLoginPage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const signIn = useSignIn();
  const [enrolment, setEnrolment] = useState<OperatorSession['totpEnrolment']>(null);
  const isExpired = searchParams.get(LOGIN_REASON_PARAM) === LOGIN_REASON_EXPIRED;
  const goToDashboard = () => void navigate(ADMIN_PATHS.dashboard, { replace: true });

  const onFinish = async (values: { email: string; password: string; totpCode?: string }) => {
    const body: SignInInput = { email: values.email.trim(), password: values.password };
    if (values.totpCode) body.totpCode = values.totpCode;
    try {
      const session = await signIn.mutateAsync(body);
      if (session.state === 'enrolTotp' && session.totpEnrolment) setEnrolment(session.totpEnrolment);
      else goToDashboard();
    } catch {
      // The HTTP client shows the refusal (wrong password or code, locked account).
    }
  };

  return (
    <Flex vertical align="center" style={{ minHeight: '100vh', padding: '64px 16px', background: colourVar('page') }}>
      <Flex justify="flex-end" style={{ width: 420, marginBottom: 16 }}>
        <LanguageSelect />
      </Flex>
      <Card style={{ width: 420 }}>
        <Typography.Title level={1} style={{ fontSize: 22 }}>
          {t('login.title')}
        </Typography.Title>
        {isExpired && !enrolment && (
          <Alert
            type="warning"
            showIcon
            role="alert"
            style={{ marginBottom: 16 }}
            title={t('login.expiredTitle')}
            description={t('login.expiredText')}
          />
        )}
        {enrolment ? (
          <EnrolTotpStep enrolment={enrolment} onDone={goToDashboard} />
        ) : (
          <Form layout="vertical" onFinish={(values) => void onFinish(values)} requiredMark={false}>
            <Form.Item
              name="email"
              label={t('login.email')}
              rules={[{ required: true, type: 'email', message: t('login.emailInvalid') }]}
            >
              <Input autoComplete="username" />
            </Form.Item>
            <Form.Item
              name="password"
              label={t('login.password')}
              rules={[{ required: true, message: t('common.required') }]}
            >
              <Input.Password autoComplete="current-password" />
            </Form.Item>
            <Form.Item
              name="totpCode"
              label={t('login.code')}
              extra={t('login.codeHint')}
              rules={[{ pattern: CODE_PATTERN, message: t('login.codeInvalid') }]}
            >
              <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={signIn.isPending}>
              {t('login.submit')}
            </Button>
          </Form>
        )}
      </Card>
    </Flex>
  );
}
