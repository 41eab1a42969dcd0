import type { SecurityConfig } from '@meridian/contracts/identity';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, List, Modal, Switch, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { pathTo } from '../../../config/paths.ts';
import { isSuccess } from '../../../lib/api-client.ts';
import { useSecurityConfig } from '../../../lib/get-security-config.ts';
import { useSelf } from '../../../lib/get-self.ts';
import { identityKeys } from '../../../lib/identity-keys.ts';
import { sendEmailCode } from '../../../lib/send-email-code.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { RequireUser } from '../../../components/require-user.tsx';
import { VerifyFields } from '../../../components/verify-fields.tsx';
import { isMfaByPasskeyOnly, withPasskeyFactor } from '../../../lib/passkey.ts';
import { useSessions } from '../api/get-sessions.ts';
import { useSignIns } from '../api/get-sign-ins.ts';
import { revokeSession } from '../api/revoke-session.ts';
import { switchConfig } from '../api/switch-config.ts';
import { ChangeEmailSection } from '../components/change-email-section.tsx';
import { PasskeysSection } from '../components/passkeys-section.tsx';
import {
  type BindingRow,
  bindingRows,
  isSwitchAvailable,
  isSwitchOn,
  type SwitchFactor,
  type SwitchScope,
  switchNeeds,
} from '../lib/security-rules.ts';
import './account-pages.css';

const DATETIME = 'YYYY-MM-DD HH:mm';

interface PendingSwitch {
  scope: SwitchScope;
  factor: SwitchFactor;
  isEnabled: boolean;
}

/** `/my/security`: bindings, login and trade verification switches, sessions and sign-in history. */
export function SecurityPage() {
  return (
    <RequireUser>
      <SecurityOverview />
    </RequireUser>
  );
}

function SecurityOverview() {
  const { t } = useTranslation('identity');
  const self = useSelf();
  const config = useSecurityConfig();
  const [pending, setPending] = useState<PendingSwitch | null>(null);
  const conf = config.data;

  const bindings = useBindingItems(conf, self.data?.email ?? '', self.data?.mobile ?? null);

  const factorLabels: Record<SwitchFactor, string> = {
    email: t('security.email'),
    mfa: t('security.google'),
    security: t('security.pin'),
  };
  const switchRow = (config: SecurityConfig, scope: SwitchScope, factor: SwitchFactor) => (
    <Switch
      // A switch in a table cell is named by its row and column ("Email, Login"), not by a label.
      aria-label={`${factorLabels[factor]}, ${t(scope === 'login' ? 'security.login' : 'security.trade')}`}
      data-testid={`switch-${scope}-${factor}`}
      checked={isSwitchOn(config, scope, factor)}
      disabled={!isSwitchAvailable(config, factor)}
      onChange={(isEnabled) => setPending({ scope, factor, isEnabled })}
    />
  );

  return (
    <PageFrame>
      <div className="content-card" data-testid="security-page">
        {conf?.withdrawalHoldUntil && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            message={t('security.hold', { until: dayjs(conf.withdrawalHoldUntil).format(DATETIME) })}
          />
        )}
        <List
          id="mobile"
          header={<Typography.Title level={5}>{t('security.bindings')}</Typography.Title>}
          loading={!conf}
          dataSource={bindings}
          renderItem={(item) => (
            <List.Item
              data-testid={`binding-${item.key}`}
              actions={
                item.to
                  ? [
                      <Link
                        key="go"
                        to={item.to}
                        className="security-binding__action"
                        data-testid={`binding-${item.key}-action`}
                      >
                        {item.isBound ? t('security.change') : t('security.bind')}
                      </Link>,
                    ]
                  : []
              }
            >
              <List.Item.Meta title={item.title} description={item.value} />
              <Tag color={item.isBound ? 'green' : 'default'}>
                {item.isBound ? t('security.bound') : t('security.unbound')}
              </Tag>
            </List.Item>
          )}
        />
        {conf && <PasskeysSection />}
        {conf && <ChangeEmailSection />}
        {conf && (
          <>
            <Typography.Title level={5} style={{ marginTop: 24 }}>
              {t('security.loginVerification')}
            </Typography.Title>
            <Table
              size="small"
              pagination={false}
              rowKey="factor"
              columns={[
                { title: t('security.factor'), dataIndex: 'label' },
                { title: t('security.login'), dataIndex: 'login' },
                { title: t('security.trade'), dataIndex: 'trade' },
              ]}
              dataSource={[
                {
                  factor: 'email',
                  label: t('security.email'),
                  login: switchRow(conf, 'login', 'email'),
                  trade: switchRow(conf, 'trade', 'email'),
                },
                {
                  factor: 'mfa',
                  label: t('security.mfaFactor'),
                  login: switchRow(conf, 'login', 'mfa'),
                  trade: switchRow(conf, 'trade', 'mfa'),
                },
                {
                  factor: 'security',
                  label: t('security.pin'),
                  login: '—',
                  trade: switchRow(conf, 'trade', 'security'),
                },
              ]}
            />
          </>
        )}
        <SessionsSection />
        <Typography.Paragraph style={{ marginTop: 24 }}>
          <Link to={pathTo('DeleteAccount')} data-testid="to-delete-account">
            {t('security.deleteAccount')}
          </Link>
        </Typography.Paragraph>
        {pending && conf && (
          <SwitchModal
            pending={pending}
            needs={switchNeeds(conf, pending.scope)}
            email={self.data?.email ?? ''}
            mfaMethods={conf.mfa}
            onClose={() => setPending(null)}
          />
        )}
      </div>
    </PageFrame>
  );
}

/** Confirms a switch with an email code (CONFIG_SWITCH) and the factors the scope requires now. */
function SwitchModal({
  pending,
  needs,
  email,
  mfaMethods,
  onClose,
}: {
  pending: PendingSwitch;
  needs: { email: boolean; mfa: boolean; security: boolean };
  email: string;
  /** The security configuration's `mfa` list: a passkey-only account gives the factor by passkey. */
  mfaMethods: readonly string[];
  onClose: () => void;
}) {
  const { t } = useTranslation('identity');
  const [form] = Form.useForm();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const isPasskeyOnly = isMfaByPasskeyOnly(needs.mfa, mfaMethods);
  const submit = async (entered: Record<string, string>) => {
    setError(null);
    // The mfa factor of an account whose only method is a passkey: the passkey is asked for here.
    const withFactor = isPasskeyOnly ? await withPasskeyFactor(entered, t('passkeys.cancelled')) : { values: entered };
    if ('error' in withFactor) {
      setError(withFactor.error);
      return;
    }
    const response = await switchConfig({ ...pending, ...withFactor.values });
    if (isSuccess(response)) {
      queryClient.setQueryData(identityKeys.config, response.content);
      onClose();
      return;
    }
    setError(applyServerErrors(form, response, ['emailCaptcha', 'mfaCode', 'securityPassword']));
  };
  return (
    <Modal open title={t('securityCheck.title')} footer={null} onCancel={onClose} width={450} destroyOnHidden>
      <Form form={form} layout="vertical" requiredMark={false} onFinish={(values) => void submit(values)}>
        <VerifyFields
          needs={{ ...needs, mfa: needs.mfa && !isPasskeyOnly }}
          email={email}
          onSendCode={() => sendEmailCode('CONFIG_SWITCH')}
        />
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
        <Button type="primary" htmlType="submit" block data-testid="switch-confirm">
          {t('verify.confirm')}
        </Button>
      </Form>
    </Modal>
  );
}

function SessionsSection() {
  const { t } = useTranslation('identity');
  const sessions = useSessions();
  const signIns = useSignIns();
  const queryClient = useQueryClient();
  return (
    <>
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('security.sessions')}
      </Typography.Title>
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        loading={sessions.isLoading}
        dataSource={sessions.data ?? []}
        data-testid="sessions-table"
        columns={[
          {
            title: t('security.device'),
            dataIndex: 'device',
            render: (device: string, row) =>
              row.isCurrent ? (
                <>
                  {device} <Tag color="blue">{t('security.current')}</Tag>
                </>
              ) : (
                device
              ),
          },
          { title: 'IP', dataIndex: 'ip' },
          {
            title: t('security.lastSeen'),
            dataIndex: 'lastSeenAt',
            render: (value: string) => dayjs(value).format(DATETIME),
          },
          {
            title: '',
            dataIndex: 'id',
            render: (id: string, row) =>
              row.isCurrent ? null : (
                <Button
                  size="small"
                  danger
                  onClick={async () => {
                    await revokeSession(id);
                    await queryClient.invalidateQueries({ queryKey: identityKeys.sessions });
                  }}
                >
                  {t('security.revoke')}
                </Button>
              ),
          },
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('security.signIns')}
      </Typography.Title>
      <Table
        size="small"
        rowKey={(row) => `${row.createdAt}-${row.kind}`}
        pagination={{ pageSize: 10 }}
        loading={signIns.isLoading}
        dataSource={signIns.data ?? []}
        columns={[
          {
            title: t('security.event'),
            dataIndex: 'kind',
            render: (kind: string) => t(`security.kinds.${kind.replace('.', '_')}`, { defaultValue: kind }),
          },
          { title: 'IP', dataIndex: 'ip' },
          {
            title: t('security.time'),
            dataIndex: 'createdAt',
            render: (value: string) => dayjs(value).format(DATETIME),
          },
        ]}
      />
    </>
  );
}

/** The bindings list's rows: each factor's title, shown value, whether it is bound and where to change it. */
function useBindingItems(conf: SecurityConfig | undefined, email: string, mobile: string | null) {
  const { t } = useTranslation('identity');
  const bindingTitles: Record<BindingRow['key'], string> = {
    email: t('security.email'),
    mobile: t('security.mobile'),
    google: t('security.google'),
    pin: t('security.pin'),
    password: t('security.password'),
  };
  const bindingTargets: Record<BindingRow['key'], string | null> = {
    email: null,
    mobile: pathTo('EnableSMS'),
    google: pathTo('GoogleAuthenticators'),
    pin: pathTo('SetPin'),
    password: pathTo('ResetPass'),
  };
  const shownValueOf = (row: BindingRow): string => {
    if (row.key === 'email') return row.shownValue ?? '';
    if (row.key === 'mobile') return row.shownValue ?? t('security.unbound');
    if (row.key === 'google') return row.isBound ? t('security.bound') : t('security.unbound');
    if (row.key === 'pin') return row.isBound ? t('security.set') : t('security.notSet');
    return '********';
  };
  return conf
    ? bindingRows(conf, email, mobile).map((row) => ({
        key: row.key,
        title: bindingTitles[row.key],
        value: shownValueOf(row),
        isBound: row.isBound,
        to: bindingTargets[row.key],
      }))
    : [];
}
