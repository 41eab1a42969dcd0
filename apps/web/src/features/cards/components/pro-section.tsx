import { type Card as CardView, type CardConfig, type CardCurrency } from '@meridian/contracts/cards';
import {
  type ApplyProBody,
  applyProBodySchema,
  corporateCardEndpoints,
  type IssueEmployeeCardBody,
  issueEmployeeCardBodySchema,
  type ProAccount,
} from '@meridian/contracts/corporate';
import { toLocale } from '@meridian/contracts/locale';
import { Alert, Button, Card, Col, Descriptions, Flex, Form, Input, InputNumber, List, Row, Select, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { useSecuredAction } from '../../../hooks/use-secured-action.ts';
import { useApplyPro } from '../api/apply-pro.ts';
import { useInvalidateCards } from '../api/card-keys.ts';
import { money } from '../lib/card-format.ts';
import { contractFieldErrors, serverFieldErrors } from '../lib/form-refusals.ts';

/** Business codes the apply form shows above its button (an open application, an approved account). */
const APPLY_FIELD_OF_CODE: Partial<Record<number, (string | number)[]>> = {};

/**
 * The PRO section of FiscardAccount (approved
 * corporate users issue cards to named employees with per-card limits; docs/corporate.md): the application form
 * when the user is not PRO (prefilled from the company investor profile; the account manager's reply
 * to a rejected one above it), the application's state while it is under review, and once approved
 * the employee cards with a form to issue one (security check CARD_APPLY).
 */
export function ProSection({ pro, cards, config }: { pro: ProAccount; cards: CardView[]; config: CardConfig }) {
  const { t } = useTranslation('cards');
  const application = pro.application;
  return (
    <Card
      title={
        <Flex gap={8} align="center" wrap>
          <span>{t('pro.title')}</span>
          {pro.isPro && <Tag color="gold">PRO</Tag>}
        </Flex>
      }
      data-testid="pro-section"
    >
      {pro.isPro ? (
        <EmployeeCards reply={application?.reply ?? null} cards={cards} config={config} />
      ) : application?.status === 'SUBMITTED' ? (
        <Alert
          type="info"
          showIcon
          data-testid="pro-pending"
          message={t('pro.pendingTitle')}
          description={
            <Descriptions
              size="small"
              column={{ xs: 1, sm: 2 }}
              items={[
                { key: 'company', label: t('pro.companyName'), children: application.companyName },
                {
                  key: 'spend',
                  label: t('pro.expectedMonthlySpend'),
                  children: money(application.expectedMonthlySpend, application.currency),
                },
                { key: 'cards', label: t('pro.cardCount'), children: application.cardCount },
                {
                  key: 'at',
                  label: t('pro.submittedAt'),
                  children: new Date(application.createdAt).toLocaleDateString(),
                },
              ]}
            />
          }
        />
      ) : (
        <ApplyForm pro={pro} config={config} />
      )}
    </Card>
  );
}

interface ApplyValues {
  companyName: string;
  registrationNumber: string;
  expectedMonthlySpend: string;
  currency: CardCurrency;
  cardCount: number;
  contactName: string;
  contactEmail: string;
  contactPhone: string;
}

/** The application form: company (prefilled from the investor profile), spend and currency, cards, contact. */
function ApplyForm({ pro, config }: { pro: ProAccount; config: CardConfig }) {
  const { t, i18n } = useTranslation('cards');
  const locale = toLocale(i18n.language);
  const [form] = Form.useForm<ApplyValues>();
  const apply = useApplyPro();
  const [formError, setFormError] = useState<string | null>(null);
  const rejected = pro.application?.status === 'REJECTED' ? pro.application : null;

  const submit = (values: ApplyValues) => {
    setFormError(null);
    const body: ApplyProBody = { ...values, cardCount: Number(values.cardCount) };
    const errors = contractFieldErrors(applyProBodySchema, body, locale);
    if (errors.length > 0) {
      form.setFields(errors.map((e) => ({ name: e.name as never, errors: e.errors })));
      return;
    }
    apply.mutate(body, {
      onError: (error) => {
        if (!(error instanceof ApiError)) return setFormError(String(error));
        const refusal = serverFieldErrors(error.response, APPLY_FIELD_OF_CODE);
        form.setFields(refusal.fields.map((e) => ({ name: e.name as never, errors: e.errors })));
        setFormError(refusal.message);
      },
    });
  };

  const required = [{ required: true, message: t('apply.required') }];
  return (
    <Form<ApplyValues>
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={submit}
      onValuesChange={() => setFormError(null)}
      initialValues={{
        companyName: pro.prefill.companyName ?? '',
        registrationNumber: pro.prefill.registrationNumber ?? '',
        currency: config.currencies[0],
        cardCount: 5,
      }}
      data-testid="pro-apply-form"
    >
      <p className="pro-section__intro">{t('pro.intro')}</p>
      {rejected && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="pro-rejected"
          message={t('pro.rejectedTitle')}
          description={rejected.reply}
        />
      )}
      <Row gutter={12}>
        <Col xs={24} md={12}>
          <Form.Item
            name="companyName"
            label={t('pro.companyName')}
            extra={pro.prefill.companyName ? t('pro.prefilled') : undefined}
            rules={required}
          >
            <Input autoComplete="organization" maxLength={200} data-testid="pro-company" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="registrationNumber" label={t('pro.registrationNumber')} rules={required}>
            <Input maxLength={50} data-testid="pro-registration" />
          </Form.Item>
        </Col>
        <Col xs={16} md={8}>
          <Form.Item name="expectedMonthlySpend" label={t('pro.expectedMonthlySpend')} rules={required}>
            <Input inputMode="decimal" maxLength={20} data-testid="pro-spend" />
          </Form.Item>
        </Col>
        <Col xs={8} md={4}>
          <Form.Item name="currency" label={t('apply.currency')}>
            <Select
              data-testid="pro-currency"
              options={config.currencies.map((currency) => ({ value: currency, label: currency }))}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="cardCount" label={t('pro.cardCount')} rules={required}>
            <InputNumber min={1} max={10000} precision={0} style={{ width: '100%' }} data-testid="pro-card-count" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="contactName" label={t('pro.contactName')} rules={required}>
            <Input autoComplete="name" maxLength={100} data-testid="pro-contact-name" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="contactEmail" label={t('pro.contactEmail')} rules={required}>
            <Input type="email" autoComplete="email" data-testid="pro-contact-email" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="contactPhone" label={t('pro.contactPhone')} rules={required}>
            <Input inputMode="tel" autoComplete="tel" maxLength={30} data-testid="pro-contact-phone" />
          </Form.Item>
        </Col>
      </Row>
      {formError && (
        <Alert type="error" showIcon style={{ marginBottom: 12 }} message={formError} data-testid="pro-apply-error" />
      )}
      <Button type="primary" htmlType="submit" loading={apply.isPending} data-testid="pro-apply-submit">
        {t('pro.submit')}
      </Button>
    </Form>
  );
}

interface EmployeeValues {
  employeeName: string;
  network: IssueEmployeeCardBody['network'];
  currency: CardCurrency;
  perTransaction: string;
  daily: string;
  monthly: string;
}

/** Approved: the employee cards (name, masked number, currency) and the form that issues one. */
function EmployeeCards({ reply, cards, config }: { reply: string | null; cards: CardView[]; config: CardConfig }) {
  const { t, i18n } = useTranslation('cards');
  const locale = toLocale(i18n.language);
  const [form] = Form.useForm<EmployeeValues>();
  const invalidate = useInvalidateCards();
  // One idempotency key per card to issue: a retry never issues a second one; a new key once issued.
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const [issued, setIssued] = useState<CardView | null>(null);
  const employeeCards = cards.filter((card) => card.employeeName !== null);
  const issue = useSecuredAction({
    endpoint: corporateCardEndpoints.issueEmployeeCard,
    quietSuccess: true,
    refusalsShownOn: 'form',
    form,
    fieldOf: (field) => fieldOf(field.split('.')).join('.'),
    onSuccess: (card) => {
      setIssued(card);
      setIdempotencyKey(crypto.randomUUID());
      form.resetFields(['employeeName']);
      invalidate();
    },
  });

  const submit = (values: EmployeeValues) => {
    setIssued(null);
    const body: IssueEmployeeCardBody = {
      employeeName: values.employeeName.trim(),
      network: values.network,
      currency: values.currency,
      limits: { perTransaction: values.perTransaction, daily: values.daily, monthly: values.monthly },
    };
    const errors = contractFieldErrors(issueEmployeeCardBodySchema, body, locale);
    if (errors.length > 0) {
      form.setFields(errors.map((e) => ({ name: fieldOf(e.name) as never, errors: e.errors })));
      return;
    }
    issue.run({ body }, { idempotencyKey });
  };

  return (
    <Flex vertical gap={16}>
      <Alert type="success" showIcon message={t('pro.approvedTitle')} description={reply} data-testid="pro-approved" />
      <div>
        <h3 className="pro-section__heading">{t('pro.employeeCards')}</h3>
        <List
          size="small"
          bordered
          data-testid="pro-employee-cards"
          locale={{ emptyText: t('pro.noEmployeeCards') }}
          dataSource={employeeCards}
          renderItem={(card) => (
            <List.Item data-testid="pro-employee-card">
              <Flex justify="space-between" wrap gap={8} style={{ width: '100%' }}>
                <strong>{card.employeeName}</strong>
                <span>
                  {card.maskedNumber} · {card.currency}
                </span>
              </Flex>
            </List.Item>
          )}
        />
      </div>
      <Form<EmployeeValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={submit}
        onValuesChange={issue.clearErrors}
        initialValues={{ network: config.networks[0], currency: config.currencies[0] }}
        data-testid="pro-employee-form"
      >
        <h3 className="pro-section__heading">{t('pro.issueTitle')}</h3>
        <p className="pro-section__intro">{t('pro.issueIntro')}</p>
        <Row gutter={12}>
          <Col xs={24} md={12}>
            <Form.Item
              name="employeeName"
              label={t('pro.employeeName')}
              extra={t('pro.employeeNameHelp')}
              rules={[{ required: true, message: t('apply.required') }]}
            >
              <Input maxLength={26} autoComplete="off" data-testid="pro-employee-name" />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="network" label={t('apply.network')}>
              <Select
                data-testid="pro-employee-network"
                options={config.networks.map((network) => ({ value: network, label: t(`network.${network}`) }))}
              />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="currency" label={t('apply.currency')}>
              <Select
                data-testid="pro-employee-currency"
                options={config.currencies.map((currency) => ({ value: currency, label: currency }))}
              />
            </Form.Item>
          </Col>
          {(['perTransaction', 'daily', 'monthly'] as const).map((field) => (
            <Col xs={24} md={8} key={field}>
              <Form.Item
                name={field}
                label={t(`pro.limit.${field}`)}
                rules={[{ required: true, message: t('apply.required') }]}
              >
                <Input inputMode="decimal" maxLength={16} autoComplete="off" data-testid={`pro-limit-${field}`} />
              </Form.Item>
            </Col>
          ))}
        </Row>
        {issue.error && (
          <Alert
            type="error"
            showIcon
            style={{ marginBottom: 12 }}
            message={issue.error}
            data-testid="pro-issue-error"
          />
        )}
        {issued && (
          <Alert
            type="success"
            showIcon
            style={{ marginBottom: 12 }}
            data-testid="pro-issue-done"
            message={t('pro.issued', { name: issued.employeeName ?? '', number: issued.maskedNumber })}
          />
        )}
        <Button type="primary" htmlType="submit" loading={issue.isPending} data-testid="pro-issue-submit">
          {t('pro.issueSubmit')}
        </Button>
      </Form>
    </Flex>
  );
}

/** The form's field of a contract path: the limits are flat fields of the form (`limits.daily` → `daily`). */
function fieldOf(path: (string | number)[]): (string | number)[] {
  return path[0] === 'limits' && path.length === 2 ? [path[1]!] : path;
}
