import {
  BANNER_IMAGES,
  BANNER_LINK_LENGTH_MAX,
  BANNER_TITLE_LENGTH_MAX,
  type BannerBody,
  type BannerState,
  backOfficeBannerEndpoints,
  isBannerLink,
  type OpsBanner,
} from '@meridian/contracts/back-office';
import {
  Alert,
  Button,
  Col,
  DatePicker,
  Form,
  Image,
  Input,
  Modal,
  Row,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
  Upload,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { useBanners, useReorderBanners, useSaveBanner } from '../api/banners.ts';
import { BANNER_IMAGE_ACCEPT, isSendableBannerImage, uploadBannerImage } from '../api/upload-banner-image.ts';
import { useMayCall } from '../components/operator-context.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { QueryError } from '../components/query-error.tsx';
import { moveBanner } from '../lib/banner-order.ts';
import { formatDateTime } from '../lib/time.ts';

const FORM_FIELDS = ['titleEn', 'titleZh', 'webLink', 'isBlank', 'imagePath', 'imagePathZhHk', 'isActive'] as const;

const STATE_COLOURS: Record<BannerState, string> = {
  live: 'green',
  scheduled: 'blue',
  ended: 'default',
  off: 'red',
};

/** The edit form's values: the body, with the schedule as one date range. */
interface BannerForm extends Omit<BannerBody, 'startsAt' | 'endsAt'> {
  schedule?: [Dayjs | null, Dayjs | null] | null;
}

function formOf(banner: OpsBanner | null): Partial<BannerForm> {
  if (!banner) return { isActive: true, isBlank: false, imagePath: BANNER_IMAGES[0], imagePathZhHk: null };
  return {
    titleEn: banner.titleEn,
    titleZh: banner.titleZh,
    webLink: banner.webLink,
    isBlank: banner.isBlank,
    imagePath: banner.imagePath as BannerBody['imagePath'],
    imagePathZhHk: banner.imagePathZhHk as BannerBody['imagePathZhHk'],
    isActive: banner.isActive,
    schedule: [banner.startsAt ? dayjs(banner.startsAt) : null, banner.endsAt ? dayjs(banner.endsAt) : null],
  };
}

function bodyOf(values: BannerForm): BannerBody {
  const [start, end] = values.schedule ?? [null, null];
  return {
    titleEn: values.titleEn,
    titleZh: values.titleZh,
    webLink: values.webLink,
    isBlank: values.isBlank,
    imagePath: values.imagePath,
    imagePathZhHk: values.imagePathZhHk ?? null,
    isActive: values.isActive,
    startsAt: start ? start.toISOString() : null,
    endsAt: end ? end.toISOString() : null,
  };
}

/**
 * Upload one banner image (PNG, JPEG or WebP, at most 2 MB; the server checks the content) and
 * hand its served path to `onUploaded`; the server's refusal (naming the file and the rule) shows
 * under the button.
 */
function ImageUploadButton({
  onUploaded,
  testId,
}: {
  onUploaded: (path: string, fileName: string) => void;
  testId: string;
}) {
  const { t } = useTranslation('admin');
  const [isUploading, setIsUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = async (file: File) => {
    setError(null);
    if (!isSendableBannerImage(file)) {
      setError(t('banners.uploadRefused', { name: file.name }));
      return;
    }
    setIsUploading(true);
    const outcome = await uploadBannerImage(file, t('banners.uploadFailed'));
    setIsUploading(false);
    if (outcome.isOk) onUploaded(outcome.image.path, outcome.image.fileName);
    else setError(outcome.message);
  };
  return (
    <div style={{ marginBottom: 12 }}>
      <Upload
        accept={BANNER_IMAGE_ACCEPT}
        showUploadList={false}
        beforeUpload={(file) => {
          void send(file);
          return false;
        }}
      >
        <Button loading={isUploading} data-testid={testId}>
          {t('banners.upload')}
        </Button>
      </Upload>
      <div>
        <Typography.Text type="secondary">{t('banners.uploadHelp')}</Typography.Text>
      </div>
      {error && (
        <Typography.Text type="danger" role="alert">
          {error}
        </Typography.Text>
      )}
    </div>
  );
}

/**
 * Add or edit a banner: titles in both languages, the link (a site path or an https address), the
 * image of each language (chosen from the images the web app ships, or uploaded) with a preview,
 * the schedule and the active switch. Field errors of the server are shown on their fields.
 */
function BannerModal({ banner, onClose }: { banner: OpsBanner | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<BannerForm>();
  const imagePath = Form.useWatch('imagePath', form);
  const imagePathZhHk = Form.useWatch('imagePathZhHk', form);
  const save = useSaveBanner();
  const mayUpload = useMayCall(backOfficeBannerEndpoints.uploadBannerImage);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    setError(null);
    let values: BannerForm;
    try {
      values = await form.validateFields();
    } catch {
      return; // The form shows what is missing.
    }
    try {
      await save.mutateAsync({ id: banner?.id ?? null, body: bodyOf(values) });
      onClose();
    } catch (failure) {
      if (failure instanceof ApiError) setError(applyServerErrors(form, failure.response, FORM_FIELDS));
    }
  };

  // Uploaded images are offered by their file name once uploaded here, else by their path.
  const [uploadedNames, setUploadedNames] = useState<Record<string, string>>({});
  const uploadedPaths = [banner?.imagePath, banner?.imagePathZhHk, ...Object.keys(uploadedNames)].filter(
    (path): path is string => !!path && !(BANNER_IMAGES as readonly string[]).includes(path),
  );
  const imageOptions = [
    ...[...new Set(uploadedPaths)].map((path) => ({
      value: path,
      label: t('banners.uploadedImage', { name: uploadedNames[path] ?? path.split('/').pop() }),
    })),
    ...BANNER_IMAGES.map((path) => ({ value: path, label: path })),
  ];
  const pickUploaded = (field: 'imagePath' | 'imagePathZhHk') => (path: string, fileName: string) => {
    setUploadedNames((names) => ({ ...names, [path]: fileName }));
    form.setFieldValue(field, path);
  };

  return (
    <Modal
      open
      width={900}
      title={banner ? t('banners.edit') : t('banners.new')}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      {error && <Alert type="error" showIcon style={{ marginBottom: 16 }} title={error} />}
      <Form form={form} layout="vertical" initialValues={formOf(banner)}>
        <BannerTitleFields />
        <Form.Item
          name="webLink"
          label={t('banners.link')}
          extra={t('banners.linkHelp')}
          rules={[
            { required: true, whitespace: true, message: t('common.required') },
            {
              validator: async (_rule, value: string | undefined) => {
                if (value && !isBannerLink(value.trim())) throw new Error(t('banners.linkInvalid'));
              },
            },
          ]}
        >
          <Input maxLength={BANNER_LINK_LENGTH_MAX} />
        </Form.Item>
        <Row gutter={24}>
          <Col xs={24} md={12}>
            <Form.Item
              name="imagePath"
              label={t('banners.imageEn')}
              rules={[{ required: true, message: t('common.required') }]}
            >
              <Select options={imageOptions} />
            </Form.Item>
            {mayUpload && <ImageUploadButton onUploaded={pickUploaded('imagePath')} testId="banner-upload-en" />}
            {imagePath && <Image src={imagePath} alt="" height={120} data-testid="banner-preview-en" />}
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="imagePathZhHk" label={t('banners.imageZh')}>
              <Select allowClear placeholder={t('banners.sameImage')} options={imageOptions} />
            </Form.Item>
            {mayUpload && <ImageUploadButton onUploaded={pickUploaded('imagePathZhHk')} testId="banner-upload-zh" />}
            {(imagePathZhHk ?? imagePath) && (
              <Image src={imagePathZhHk ?? imagePath} alt="" height={120} data-testid="banner-preview-zh" />
            )}
          </Col>
        </Row>
        <Form.Item name="schedule" label={t('banners.schedule')} extra={t('banners.scheduleHelp')}>
          <DatePicker.RangePicker showTime allowEmpty={[true, true]} />
        </Form.Item>
        <Space size="large">
          <Form.Item name="isActive" label={t('banners.active')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="isBlank" label={t('banners.newTab')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Space>
      </Form>
    </Modal>
  );
}

/**
 * `/admin/banners`: the home-page banners in display order with their
 * state (scheduled, live, ended, off). Compliance and admin add, edit and move them up or down;
 * support reads.
 */
export function BannersPage() {
  const { t, i18n } = useTranslation('admin');
  const banners = useBanners();
  const mayWrite = useMayCall(backOfficeBannerEndpoints.createBanner);
  const reorder = useReorderBanners();
  const [editing, setEditing] = useState<OpsBanner | 'new' | null>(null);
  const ids = banners.data?.map((banner) => banner.id) ?? [];

  const move = (index: number, delta: -1 | 1) => {
    void reorder.mutateAsync(moveBanner(ids, index, delta)).catch(() => {
      // The HTTP client shows the refusal.
    });
  };

  return (
    <>
      <PageTitle
        extra={
          mayWrite && (
            <Button type="primary" onClick={() => setEditing('new')}>
              {t('banners.new')}
            </Button>
          )
        }
      >
        {t('banners.title')}
      </PageTitle>
      {banners.isError && <QueryError error={banners.error} onRetry={() => void banners.refetch()} />}
      <Table<OpsBanner>
        rowKey="id"
        loading={banners.isFetching || reorder.isPending}
        dataSource={banners.data}
        pagination={false}
        scroll={{ x: 900 }}
        columns={[
          {
            title: t('banners.image'),
            key: 'image',
            render: (_, row) => (
              <Image
                src={i18n.language === 'zh-HK' ? (row.imagePathZhHk ?? row.imagePath) : row.imagePath}
                // The image opens a preview: its alt text names that button (axe aria-command-name).
                alt={i18n.language === 'zh-HK' ? row.titleZh : row.titleEn}
                height={48}
              />
            ),
          },
          {
            title: t('banners.bannerTitle'),
            key: 'title',
            render: (_, row) => (i18n.language === 'zh-HK' ? row.titleZh : row.titleEn),
          },
          { title: t('banners.link'), dataIndex: 'webLink' },
          {
            title: t('common.status'),
            dataIndex: 'state',
            render: (state: BannerState) => <Tag color={STATE_COLOURS[state]}>{t(`banners.states.${state}`)}</Tag>,
          },
          {
            title: t('banners.schedule'),
            key: 'schedule',
            render: (_, row) =>
              `${row.startsAt ? formatDateTime(row.startsAt, i18n.language) : t('banners.open')} – ${
                row.endsAt ? formatDateTime(row.endsAt, i18n.language) : t('banners.open')
              }`,
          },
          ...(mayWrite
            ? [
                {
                  title: t('common.actions'),
                  key: 'actions',
                  render: (_: unknown, row: OpsBanner, index: number) => (
                    <Space>
                      <Button size="small" disabled={index === 0} onClick={() => move(index, -1)}>
                        {t('banners.up')}
                      </Button>
                      <Button size="small" disabled={index === ids.length - 1} onClick={() => move(index, 1)}>
                        {t('banners.down')}
                      </Button>
                      <Button size="small" onClick={() => setEditing(row)}>
                        {t('banners.edit')}
                      </Button>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      {editing && <BannerModal banner={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}

/** The banner's title in each language (required, at most `BANNER_TITLE_LENGTH_MAX` characters). */
function BannerTitleFields() {
  const { t } = useTranslation('admin');
  const titleRules = [
    { required: true, whitespace: true, message: t('common.required') },
    { max: BANNER_TITLE_LENGTH_MAX, message: t('common.tooLong', { max: BANNER_TITLE_LENGTH_MAX }) },
  ];
  return (
    <Row gutter={24}>
      <Col xs={24} md={12}>
        <Form.Item name="titleEn" label={t('banners.titleEn')} rules={titleRules}>
          <Input maxLength={BANNER_TITLE_LENGTH_MAX} showCount lang="en-US" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="titleZh" label={t('banners.titleZh')} rules={titleRules}>
          <Input maxLength={BANNER_TITLE_LENGTH_MAX} showCount lang="zh-HK" />
        </Form.Item>
      </Col>
    </Row>
  );
}
