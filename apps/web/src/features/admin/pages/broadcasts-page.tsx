import {
  BROADCAST_BODY_LENGTH_MAX,
  BROADCAST_SEGMENTS,
  BROADCAST_TITLE_LENGTH_MAX,
  type Broadcast,
  type BroadcastSegment,
  backOfficeBroadcastEndpoints,
  type SendBroadcastBody,
} from '@meridian/contracts/back-office';
import { Alert, Button, Card, Col, Form, Input, Modal, Radio, Row, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { useBroadcasts, useSendBroadcast } from '../api/broadcasts.ts';
import { useMayCall } from '../components/operator-context.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { QueryError } from '../components/query-error.tsx';
import { type BroadcastDraft, broadcastPreview } from '../lib/broadcast-preview.ts';
import { formatDateTime } from '../lib/time.ts';
import { usePaging } from '../lib/use-paging.ts';

const FORM_FIELDS = ['titleEn', 'titleZh', 'bodyEn', 'bodyZh', 'segment'] as const;
const LANGUAGES = [
  { locale: 'en-US', suffix: 'En' },
  { locale: 'zh-HK', suffix: 'Zh' },
] as const;

/** How the message will read in one language, as the user's message centre shows it. */
function PreviewCard({ draft, locale }: { draft: BroadcastDraft; locale: 'en-US' | 'zh-HK' }) {
  const { t } = useTranslation('admin');
  const preview = broadcastPreview(draft, locale);
  return (
    <Card size="small" title={t('broadcasts.previewIn', { language: t(`broadcasts.language.${locale}`) })}>
      <Typography.Text strong>{preview.title ?? t('broadcasts.previewNoTitle')}</Typography.Text>
      <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginTop: 8, marginBottom: 0 }}>
        {preview.body ?? <Typography.Text type="secondary">{t('broadcasts.previewNoBody')}</Typography.Text>}
      </Typography.Paragraph>
    </Card>
  );
}

/**
 * The new-broadcast form: both languages side by side with a live preview of each, the segment,
 * then a confirmation step before anything is sent. Field errors of the server are shown on their
 * fields.
 */
function NewBroadcastModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<SendBroadcastBody>();
  const draft = (Form.useWatch([], form) ?? {}) as BroadcastDraft & { segment?: BroadcastSegment };
  const send = useSendBroadcast();
  const [confirming, setConfirming] = useState<SendBroadcastBody | null>(null);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    setConfirming(null);
    setError(null);
    form.resetFields();
    onClose();
  };
  const review = async () => {
    setError(null);
    try {
      setConfirming(await form.validateFields());
    } catch {
      // The form shows what is missing.
    }
  };
  const submit = async () => {
    if (!confirming) return;
    try {
      await send.mutateAsync(confirming);
      close();
    } catch (failure) {
      setConfirming(null);
      if (failure instanceof ApiError) setError(applyServerErrors(form, failure.response, FORM_FIELDS));
    }
  };

  const textRules = (lengthMax: number) => [
    { required: true, whitespace: true, message: t('common.required') },
    { max: lengthMax, message: t('common.tooLong', { max: lengthMax }) },
  ];

  return (
    <Modal
      open={open}
      width={1000}
      title={t('broadcasts.new')}
      onCancel={close}
      destroyOnHidden
      footer={
        confirming
          ? [
              <Button key="back" onClick={() => setConfirming(null)}>
                {t('broadcasts.back')}
              </Button>,
              <Button key="send" type="primary" danger loading={send.isPending} onClick={() => void submit()}>
                {t('broadcasts.send')}
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={close}>
                {t('common.cancel')}
              </Button>,
              <Button key="review" type="primary" onClick={() => void review()}>
                {t('broadcasts.review')}
              </Button>,
            ]
      }
    >
      {confirming && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('broadcasts.confirmTitle')}
          description={t(`broadcasts.confirmSegment.${confirming.segment}`)}
        />
      )}
      {error && <Alert type="error" showIcon style={{ marginBottom: 16 }} title={error} />}
      <Form form={form} layout="vertical" preserve={false} initialValues={{ segment: 'all' }} disabled={!!confirming}>
        <Form.Item name="segment" label={t('broadcasts.segment')} rules={[{ required: true }]}>
          <Radio.Group
            options={BROADCAST_SEGMENTS.map((value) => ({ value, label: t(`broadcasts.segments.${value}`) }))}
          />
        </Form.Item>
        <Row gutter={24}>
          {LANGUAGES.map(({ locale, suffix }) => (
            <Col key={locale} xs={24} md={12}>
              <Typography.Title level={5}>{t(`broadcasts.language.${locale}`)}</Typography.Title>
              <Form.Item
                name={`title${suffix}`}
                label={t('broadcasts.messageTitle')}
                rules={textRules(BROADCAST_TITLE_LENGTH_MAX)}
              >
                <Input maxLength={BROADCAST_TITLE_LENGTH_MAX} showCount lang={locale} />
              </Form.Item>
              <Form.Item
                name={`body${suffix}`}
                label={t('broadcasts.messageBody')}
                rules={textRules(BROADCAST_BODY_LENGTH_MAX)}
              >
                <Input.TextArea rows={6} maxLength={BROADCAST_BODY_LENGTH_MAX} showCount lang={locale} />
              </Form.Item>
              <PreviewCard draft={draft} locale={locale} />
            </Col>
          ))}
        </Row>
      </Form>
    </Modal>
  );
}

/**
 * `/admin/broadcasts`: the broadcast messages sent, newest first, and (for
 * compliance and admin) a new one to every active user or every verified user, each in their own
 * language.
 */
export function BroadcastsPage() {
  const { t, i18n } = useTranslation('admin');
  const paging = usePaging();
  const broadcasts = useBroadcasts({ pageID: paging.pageID, pageSize: paging.pageSize });
  const maySend = useMayCall(backOfficeBroadcastEndpoints.sendBroadcast);
  const [isWriting, setWriting] = useState(false);

  return (
    <>
      <PageTitle
        extra={
          maySend && (
            <Button type="primary" onClick={() => setWriting(true)}>
              {t('broadcasts.new')}
            </Button>
          )
        }
      >
        {t('broadcasts.title')}
      </PageTitle>
      {broadcasts.isError && <QueryError error={broadcasts.error} onRetry={() => void broadcasts.refetch()} />}
      <Table<Broadcast>
        rowKey="id"
        loading={broadcasts.isFetching}
        dataSource={broadcasts.data?.list}
        pagination={paging.pagination(broadcasts.data?.totalCount)}
        scroll={{ x: 900 }}
        expandable={{
          expandedRowRender: (row) => (
            <Row gutter={24}>
              {LANGUAGES.map(({ locale }) => (
                <Col key={locale} xs={24} md={12}>
                  <PreviewCard draft={row} locale={locale} />
                </Col>
              ))}
            </Row>
          ),
        }}
        columns={[
          {
            title: t('common.time'),
            dataIndex: 'createdAt',
            render: (at: string) => formatDateTime(at, i18n.language),
          },
          {
            title: t('broadcasts.messageTitle'),
            key: 'title',
            render: (_, row) => (i18n.language === 'zh-HK' ? row.titleZh : row.titleEn),
          },
          {
            title: t('broadcasts.segment'),
            dataIndex: 'segment',
            render: (segment: BroadcastSegment) => t(`broadcasts.segments.${segment}`),
          },
          { title: t('broadcasts.recipients'), dataIndex: 'recipientCount', align: 'right' },
          { title: t('common.operator'), dataIndex: 'operatorEmail' },
        ]}
      />
      <NewBroadcastModal open={isWriting} onClose={() => setWriting(false)} />
    </>
  );
}
