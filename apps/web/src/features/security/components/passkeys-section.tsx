import { PASSKEY_NAME_LENGTH_MAX, PASSKEYS_PER_USER_MAX, type PasskeyItem } from '@meridian/contracts/passkeys';
import { toLocale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, List, Modal, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isSuccess } from '../../../lib/api-client.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { identityKeys } from '../../../lib/identity-keys.ts';
import { createPasskey, isPasskeySupported } from '../../../lib/passkey.ts';
import { usePasskeys } from '../api/get-passkeys.ts';
import { useRegisterPasskey } from '../api/register-passkey.ts';
import { useRemovePasskey } from '../api/remove-passkey.ts';
import { renamePasskey } from '../api/rename-passkey.ts';

const DATETIME = 'YYYY-MM-DD HH:mm';

/** What the name dialog is doing: adding a new passkey, or renaming one. */
type NameDialog = { kind: 'add' } | { kind: 'rename'; passkey: PasskeyItem };

/**
 * The Passkeys section of `/my/security`: the registered passkeys with their names,
 * when added and last used; add one (a name, the browser's passkey dialog, then the security check
 * `PASSKEY_ADD`), rename, remove (security check `PASSKEY_REMOVE`).
 */
export function PasskeysSection() {
  const { t } = useTranslation('identity');
  const passkeys = usePasskeys();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<NameDialog | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const isSupported = isPasskeySupported();
  const items = passkeys.data ?? [];
  const refresh = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: identityKeys.passkeys }),
      queryClient.invalidateQueries({ queryKey: identityKeys.config }),
    ]);
  };
  const removePasskey = useRemovePasskey(() => void refresh());

  return (
    <section data-testid="passkeys-section" style={{ marginTop: 24 }}>
      <div className="passkeys-section__head">
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('passkeys.title')}
        </Typography.Title>
        <Button
          type="primary"
          disabled={!isSupported || items.length >= PASSKEYS_PER_USER_MAX}
          onClick={() => {
            setNotice(null);
            setDialog({ kind: 'add' });
          }}
          data-testid="passkey-add"
        >
          {t('passkeys.add')}
        </Button>
      </div>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        {isSupported ? t('passkeys.intro') : t('passkeys.unsupported')}
      </Typography.Paragraph>
      {notice && (
        <Alert
          type="error"
          showIcon
          message={notice}
          closable
          onClose={() => setNotice(null)}
          style={{ marginBottom: 12 }}
          data-testid="passkey-notice"
        />
      )}
      <List
        loading={passkeys.isLoading}
        dataSource={items}
        locale={{ emptyText: t('passkeys.empty') }}
        renderItem={(item) => (
          <List.Item
            data-testid="passkey-item"
            actions={[
              <Button
                key="rename"
                type="link"
                size="small"
                onClick={() => setDialog({ kind: 'rename', passkey: item })}
                data-testid="passkey-rename"
              >
                {t('passkeys.rename')}
              </Button>,
              <Button
                key="remove"
                type="link"
                size="small"
                danger
                onClick={() => removePasskey(item.id)}
                data-testid="passkey-remove"
              >
                {t('passkeys.remove')}
              </Button>,
            ]}
          >
            <List.Item.Meta
              title={<span data-testid="passkey-name">{item.name}</span>}
              description={
                <>
                  {t('passkeys.added', { time: dayjs(item.createdAt).format(DATETIME) })}
                  {' · '}
                  {item.lastUsedAt
                    ? t('passkeys.lastUsed', { time: dayjs(item.lastUsedAt).format(DATETIME) })
                    : t('passkeys.neverUsed')}
                </>
              }
            />
          </List.Item>
        )}
      />
      {dialog && (
        <PasskeyNameDialog
          dialog={dialog}
          onClose={() => setDialog(null)}
          onDone={async (message) => {
            setDialog(null);
            if (message) setNotice(message);
            await refresh();
          }}
        />
      )}
    </section>
  );
}

/**
 * The name dialog: for `add`, the name is asked first, then the browser creates the passkey and the
 * security check registers it; for `rename`, the new name is saved at once.
 */
function PasskeyNameDialog({
  dialog,
  onClose,
  onDone,
}: {
  dialog: NameDialog;
  onClose: () => void;
  onDone: (message?: string) => Promise<void>;
}) {
  const { t, i18n } = useTranslation('identity');
  const locale = toLocale(i18n.language);
  const [form] = Form.useForm<{ name: string }>();
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const registerPasskey = useRegisterPasskey({
    onSuccess: () => void onDone(),
    onFailure: (message) => void onDone(message),
  });

  const submit = async ({ name }: { name: string }) => {
    setError(null);
    setIsBusy(true);
    if (dialog.kind === 'rename') {
      const response = await renamePasskey(dialog.passkey.id, name);
      setIsBusy(false);
      if (isSuccess(response)) await onDone();
      else setError(applyServerErrors(form, response, ['name']));
      return;
    }
    const created = await createPasskey();
    setIsBusy(false);
    if (created.kind !== 'ok') {
      setError(created.kind === 'failed' ? created.response.message : t('passkeys.cancelled'));
      return;
    }
    onClose();
    registerPasskey({ name, ...created.value });
  };

  return (
    <Modal
      open
      title={dialog.kind === 'add' ? t('passkeys.addTitle') : t('passkeys.renameTitle')}
      footer={null}
      onCancel={onClose}
      width={450}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ name: dialog.kind === 'rename' ? dialog.passkey.name : '' }}
        onFinish={(values) => void submit(values)}
      >
        <Form.Item
          label={t('passkeys.name')}
          name="name"
          extra={dialog.kind === 'add' ? t('passkeys.nameHint') : undefined}
          rules={[
            {
              required: true,
              whitespace: true,
              max: PASSKEY_NAME_LENGTH_MAX,
              message: validationMessage('validation.passkeyName', locale),
            },
          ]}
        >
          <Input autoFocus maxLength={PASSKEY_NAME_LENGTH_MAX} data-testid="passkey-name-input" />
        </Form.Item>
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
        <Button type="primary" htmlType="submit" block loading={isBusy} data-testid="passkey-name-submit">
          {dialog.kind === 'add' ? t('passkeys.create') : t('passkeys.save')}
        </Button>
      </Form>
    </Modal>
  );
}
