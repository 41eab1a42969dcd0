import { NO_TIN_REASONS } from '@meridian/contracts/kyc';
import { usTaxIdSchema } from '@meridian/contracts/kyc-rules';
import { toLocale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import { Alert, Button, Form, Input, Radio, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCountryOptions } from '../../../lib/get-countries.ts';
import type { TaxFormKind } from '../lib/tax-form.ts';
import { zodRule } from '../lib/zod-rule.ts';

// The tax form's fields, one component per step. Every step stays mounted (hidden with
// `display: none` when not `isShown`), so that the answers of both steps are sent together.

/** The translations, the rules' locale and the "required" rule. */
function useTaxFieldKit() {
  const { t, i18n } = useTranslation('kyc');
  const locale = toLocale(i18n.language);
  const required = { required: true, message: validationMessage('validation.required', locale) };
  return { t, locale, required };
}

/** Step 1: the three US-person questions and, once answered, the form they call for. */
export function TaxUsPersonFields({ isShown, kind }: { isShown: boolean; kind: TaxFormKind | null }) {
  const { t, required } = useTaxFieldKit();
  const yesNo = [
    { value: false, label: t('common.no') },
    { value: true, label: t('common.yes') },
  ];
  return (
    <div style={{ display: isShown ? undefined : 'none' }}>
      <Form.Item label={t('tax.fields.isUsCitizen')} name="isUsCitizen" rules={[required]}>
        <Radio.Group options={yesNo} data-testid="tax-citizen" />
      </Form.Item>
      <Form.Item label={t('tax.fields.isUsResident')} name="isUsResident" rules={[required]}>
        <Radio.Group options={yesNo} data-testid="tax-resident" />
      </Form.Item>
      <Form.Item label={t('tax.fields.isUsBorn')} name="isUsBorn" rules={[required]}>
        <Radio.Group options={yesNo} data-testid="tax-born" />
      </Form.Item>
      {kind && (
        <Alert
          type="info"
          data-testid="tax-kind"
          data-form={kind.form}
          title={t(kind.form === 'W9' ? 'tax.needsW9' : 'tax.needsW8ben')}
        />
      )}
    </div>
  );
}

/** Step 2: the W-9's US TIN, or the W-8BEN's tax residences. */
export function TaxFormFields({ isShown, kind }: { isShown: boolean; kind: TaxFormKind | null }) {
  const { t, locale, required } = useTaxFieldKit();
  return (
    <div style={{ display: isShown ? undefined : 'none' }}>
      {kind?.form === 'W9' && (
        <Form.Item
          label={t('tax.fields.tin')}
          extra={t('tax.tinHint')}
          name="tin"
          rules={[required, zodRule(() => usTaxIdSchema, locale)]}
        >
          <Input autoComplete="off" placeholder="AAA-GG-SSSS" inputMode="numeric" />
        </Form.Item>
      )}
      {kind?.form === 'W8BEN' && (
        <>
          <Typography.Paragraph type="secondary">{t('tax.residencesHint')}</Typography.Paragraph>
          <TaxResidenceList />
        </>
      )}
    </div>
  );
}

/** The W-8BEN's tax residences (one to five): each a country with its TIN or a CRS reason for having none. */
function TaxResidenceList() {
  const { t, locale, required } = useTaxFieldKit();
  const form = Form.useFormInstance();
  const countries = useCountryOptions();
  return (
    <Form.List name="residences">
      {(fields, { add, remove }) => (
        <>
          {fields.map((field, index) => (
            <div key={field.key} className="kyc-person-row" data-testid={`tax-residence-${index}`}>
              <Form.Item label={t('tax.fields.country')} name={[field.name, 'country']} rules={[required]}>
                <Select
                  showSearch
                  optionFilterProp="label"
                  options={countries.options}
                  loading={countries.isPending}
                  data-testid={`tax-country-${index}`}
                />
              </Form.Item>
              <Form.Item
                label={t('tax.fields.residenceTin')}
                name={[field.name, 'tin']}
                dependencies={[['residences', field.name, 'noTinReason']]}
                rules={[
                  { max: 40, message: validationMessage('validation.tooLong', locale) },
                  {
                    validator: async (_rule, value: string | undefined) => {
                      const reason = form.getFieldValue(['residences', field.name, 'noTinReason']);
                      if (!(value ?? '').trim() && !reason)
                        throw new Error(validationMessage('validation.tinOrReason', locale));
                    },
                  },
                ]}
              >
                <Input autoComplete="off" />
              </Form.Item>
              <Form.Item label={t('tax.fields.noTinReason')} name={[field.name, 'noTinReason']}>
                <Select
                  allowClear
                  options={NO_TIN_REASONS.map((reason) => ({ value: reason, label: t(`tax.reasons.${reason}`) }))}
                  data-testid={`tax-reason-${index}`}
                  popupMatchSelectWidth={false}
                />
              </Form.Item>
              <Button className="kyc-person-remove" onClick={() => remove(field.name)} disabled={fields.length <= 1}>
                {t('investor.remove')}
              </Button>
            </div>
          ))}
          {fields.length < 5 && (
            <Button type="dashed" block onClick={() => add({})} data-testid="tax-add-residence">
              {t('tax.addResidence')}
            </Button>
          )}
        </>
      )}
    </Form.List>
  );
}
