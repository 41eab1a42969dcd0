import { backOfficeUserEndpoints, type UserDetail } from '@meridian/contracts/back-office';
import { Button, Card, Form, Input, List } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAddUserNote } from '../api/add-user-note.ts';
import { formatDateTime } from '../lib/time.ts';
import { useMayCall } from './operator-context.tsx';

/** The operators' notes on the user and the form to add one. */
export function UserNotes({ user }: { user: UserDetail }) {
  const { t, i18n } = useTranslation('admin');
  const [form] = Form.useForm<{ text: string }>();
  const addNote = useAddUserNote();
  const mayAddNote = useMayCall(backOfficeUserEndpoints.addUserNote);
  return (
    <Card title={t('user.notes')}>
      <List
        dataSource={user.notes}
        locale={{ emptyText: t('common.none') }}
        renderItem={(note) => (
          <List.Item>
            <List.Item.Meta
              title={`${note.operatorEmail} · ${formatDateTime(note.at, i18n.language)}`}
              description={note.text}
            />
          </List.Item>
        )}
      />
      {mayAddNote && (
        <Form
          form={form}
          layout="vertical"
          onFinish={async ({ text }) => {
            try {
              await addNote.mutateAsync({ userId: user.userId, text: text.trim() });
              form.resetFields();
            } catch {
              // Shown by the HTTP client.
            }
          }}
        >
          <Form.Item
            name="text"
            label={t('user.note')}
            rules={[{ required: true, whitespace: true, message: t('common.required') }]}
          >
            <Input.TextArea rows={3} maxLength={2000} showCount />
          </Form.Item>
          <Button htmlType="submit" loading={addNote.isPending}>
            {t('user.addNote')}
          </Button>
        </Form>
      )}
    </Card>
  );
}
