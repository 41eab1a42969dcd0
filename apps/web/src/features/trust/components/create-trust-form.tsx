import {
  TRUST_BENEFICIARIES_MAX,
  TRUST_INACTIVITY_MONTHS_MAX,
  TRUST_INACTIVITY_MONTHS_MIN,
  TRUST_TERM_MONTHS_MAX,
  type Trust,
} from '@meridian/contracts/trust';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Flex,
  Form,
  type FormInstance,
  Input,
  InputNumber,
  Radio,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { useCreateTrust } from '../api/create-trust.ts';
import { bpsToPctText, pctToBps, sharesSumBps } from '../lib/shares.ts';

interface BeneficiaryValues {
  name: string;
  email: string;
  sharePct: number | null;
}

interface CreateTrustValues {
  name: string;
  isOpenEnded: boolean;
  termMonths: number | null;
  isRevocable: boolean;
  inactivityMonths: number;
  beneficiaries: BeneficiaryValues[];
}

const INITIAL: CreateTrustValues = {
  name: '',
  isOpenEnded: false,
  termMonths: 120,
  isRevocable: true,
  inactivityMonths: 12,
  beneficiaries: [{ name: '', email: '', sharePct: 100 }],
};

const FULL_BPS = 10_000;

/** A server field name (`beneficiaries.0.sharePct`) as the form's name path (`['beneficiaries', 0, 'sharePct']`). */
function namePath(field: string): (string | number)[] {
  return field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/**
 * Create a trust: name, term in months or open-ended, revocable or not, the inactivity
 * period (6–36 months), and the beneficiaries (Form.List: name, contact email, share %) with a live
 * sum of shares that must reach exactly 100 %. The server checks every rule again; its refusals are
 * shown on their fields (the sum under the list).
 */
export function CreateTrustForm({ onCreated }: { onCreated(trust: Trust): void }) {
  const { t } = useTranslation('trust');
  const [form] = Form.useForm<CreateTrustValues>();
  const create = useCreateTrust();
  const [sumError, setSumError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const isOpenEnded = Form.useWatch('isOpenEnded', form) ?? INITIAL.isOpenEnded;
  const beneficiaries = Form.useWatch('beneficiaries', form) ?? INITIAL.beneficiaries;
  const sumBps = sharesSumBps(beneficiaries.map((item) => item?.sharePct));
  const isSumRight = sumBps === FULL_BPS;

  const submit = (values: CreateTrustValues) => {
    setSumError(null);
    setFormError(null);
    if (!isSumRight) {
      setSumError(t('create.sumWrong', { sum: bpsToPctText(sumBps) }));
      return;
    }
    create.mutate(
      {
        name: values.name.trim(),
        termMonths: values.isOpenEnded ? null : values.termMonths,
        isRevocable: values.isRevocable,
        inactivityMonths: values.inactivityMonths,
        beneficiaries: values.beneficiaries.map((item) => ({
          name: item.name.trim(),
          email: item.email.trim(),
          sharePct: bpsToPctText(pctToBps(item.sharePct)),
        })),
      },
      {
        onSuccess: (trust) => {
          form.resetFields();
          onCreated(trust);
        },
        onError: (error) => {
          if (!(error instanceof ApiError)) return;
          const content = error.response.content as { fields?: { field: string; message: string }[] } | null;
          if (error.statusCode !== 120 || !content?.fields) {
            setFormError(error.message);
            return;
          }
          // The server's dotted names reach nested fields; the typed form instance only knows static paths.
          const untyped: FormInstance = form;
          for (const { field, message } of content.fields) {
            if (field === 'beneficiaries') setSumError(message);
            else untyped.setFields([{ name: namePath(field), errors: [message] }]);
          }
        },
      },
    );
  };

  return (
    <Card title={t('create.title')} data-testid="create-trust-card">
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={INITIAL}
        onFinish={submit}
        onValuesChange={() => {
          setSumError(null);
          setFormError(null);
        }}
        data-testid="create-trust-form"
      >
        <Form.Item
          name="name"
          label={t('create.name')}
          rules={[{ required: true, whitespace: true, message: t('create.nameRequired') }]}
        >
          <Input maxLength={60} placeholder={t('create.namePlaceholder')} data-testid="trust-name" />
        </Form.Item>
        <Flex gap={16} wrap>
          <Form.Item label={t('create.term')} htmlFor="termMonths" style={{ flex: '1 1 220px' }}>
            <Flex gap={12} align="center" wrap>
              <Form.Item
                name="termMonths"
                noStyle
                rules={[{ required: !isOpenEnded, message: t('create.termRequired') }]}
              >
                <InputNumber
                  min={1}
                  max={TRUST_TERM_MONTHS_MAX}
                  precision={0}
                  disabled={isOpenEnded}
                  suffix={t('create.months')}
                  style={{ width: 150 }}
                  data-testid="trust-term"
                />
              </Form.Item>
              <Form.Item name="isOpenEnded" valuePropName="checked" noStyle>
                <Checkbox data-testid="trust-open-ended">{t('create.openEnded')}</Checkbox>
              </Form.Item>
            </Flex>
          </Form.Item>
          <Form.Item
            name="inactivityMonths"
            label={t('create.inactivity')}
            tooltip={t('create.inactivityHelp')}
            rules={[{ required: true, message: t('create.inactivityRequired') }]}
            style={{ flex: '1 1 220px' }}
          >
            <InputNumber
              min={TRUST_INACTIVITY_MONTHS_MIN}
              max={TRUST_INACTIVITY_MONTHS_MAX}
              precision={0}
              suffix={t('create.months')}
              style={{ width: 150 }}
              data-testid="trust-inactivity"
            />
          </Form.Item>
        </Flex>
        <Form.Item name="isRevocable" label={t('create.revocability')}>
          <Radio.Group data-testid="trust-revocable">
            <Radio value>{t('create.revocable')}</Radio>
            <Radio value={false}>{t('create.irrevocable')}</Radio>
          </Radio.Group>
        </Form.Item>

        <Typography.Title level={5}>{t('create.beneficiaries')}</Typography.Title>
        <Form.List name="beneficiaries">
          {(fields, { add, remove }) => (
            <Flex vertical gap={8}>
              {fields.map((field, index) => (
                <Flex key={field.key} gap={8} wrap align="start" data-testid={`beneficiary-${index}`}>
                  <Form.Item
                    name={[field.name, 'name']}
                    rules={[{ required: true, whitespace: true, message: t('create.beneficiaryNameRequired') }]}
                    style={{ flex: '2 1 160px', marginBottom: 8 }}
                  >
                    <Input
                      maxLength={100}
                      placeholder={t('create.beneficiaryName')}
                      aria-label={t('create.beneficiaryName')}
                      data-testid="beneficiary-name"
                    />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'email']}
                    rules={[{ required: true, type: 'email', message: t('create.beneficiaryEmailInvalid') }]}
                    style={{ flex: '2 1 200px', marginBottom: 8 }}
                  >
                    <Input
                      maxLength={254}
                      placeholder={t('create.beneficiaryEmail')}
                      aria-label={t('create.beneficiaryEmail')}
                      data-testid="beneficiary-email"
                    />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'sharePct']}
                    rules={[{ required: true, message: t('create.shareRequired') }]}
                    style={{ flex: '1 1 110px', marginBottom: 8 }}
                  >
                    <InputNumber
                      min={0.01}
                      max={100}
                      precision={2}
                      suffix="%"
                      placeholder={t('create.share')}
                      aria-label={t('create.share')}
                      style={{ width: '100%' }}
                      data-testid="beneficiary-share"
                    />
                  </Form.Item>
                  {fields.length > 1 && (
                    <Button onClick={() => remove(field.name)} data-testid="beneficiary-remove">
                      {t('create.remove')}
                    </Button>
                  )}
                </Flex>
              ))}
              <Flex justify="space-between" align="center" wrap gap={8}>
                <Button
                  type="dashed"
                  disabled={fields.length >= TRUST_BENEFICIARIES_MAX}
                  onClick={() => add({ name: '', email: '', sharePct: null })}
                  data-testid="beneficiary-add"
                >
                  {t('create.addBeneficiary')}
                </Button>
                <Typography.Text type={isSumRight ? 'success' : 'danger'} strong data-testid="shares-sum">
                  {t('create.sum', { sum: bpsToPctText(sumBps) })}
                </Typography.Text>
              </Flex>
              {sumError && <Alert type="error" showIcon message={sumError} data-testid="shares-sum-error" />}
            </Flex>
          )}
        </Form.List>

        {formError && <Alert type="error" showIcon message={formError} style={{ marginTop: 16 }} />}
        <Button
          type="primary"
          htmlType="submit"
          loading={create.isPending}
          style={{ marginTop: 24 }}
          data-testid="create-trust-submit"
        >
          {t('create.submit')}
        </Button>
      </Form>
    </Card>
  );
}
