import { toLocale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import { Checkbox, Form, Input, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCountryOptions } from '../../../lib/get-countries.ts';
import { FUNDS, INDUSTRIES, OCCUPATIONS, PURPOSES, VOLUMES, WEALTH } from '../lib/aml-answers.ts';

// The AML questionnaire's fields, one component per step. Every step stays mounted (hidden with
// `display: none` when not `isShown`), so that the answers of all steps are sent together.

/** The translations, the "required" rule, the choice options of a group and the yes / no options. */
function useAmlFieldKit() {
  const { t, i18n } = useTranslation('kyc');
  const locale = toLocale(i18n.language);
  const required = { required: true, message: validationMessage('validation.required', locale) };
  const choices = (group: string, values: readonly string[]) =>
    values.map((value) => ({ value, label: t(`aml.${group}.${value}`) }));
  const yesNo = [
    { value: false, label: t('common.no') },
    { value: true, label: t('common.yes') },
  ];
  return { t, locale, required, choices, yesNo };
}

/** The style that shows a step's block only when it is the current one. */
const shownStyle = (isShown: boolean) => ({ display: isShown ? undefined : 'none' });

/** Step 1: occupation, industry and employer. */
export function AmlOccupationFields({ isShown }: { isShown: boolean }) {
  const { t, locale, required, choices } = useAmlFieldKit();
  return (
    <div style={shownStyle(isShown)}>
      <Form.Item label={t('aml.fields.occupation')} name={['occupation', 'status']} rules={[required]}>
        <Select options={choices('occupations', OCCUPATIONS)} data-testid="aml-occupation" />
      </Form.Item>
      <Form.Item label={t('aml.fields.industry')} name={['occupation', 'industry']} rules={[required]}>
        <Select options={choices('industries', INDUSTRIES)} data-testid="aml-industry" />
      </Form.Item>
      <Form.Item
        label={t('aml.fields.employer')}
        name="employer"
        rules={[{ max: 200, message: validationMessage('validation.tooLong', locale) }]}
      >
        <Input autoComplete="organization" />
      </Form.Item>
    </div>
  );
}

/** Step 2: sources of funds and of wealth, expected monthly volume, purposes. */
export function AmlFundsFields({ isShown }: { isShown: boolean }) {
  const { t, required, choices } = useAmlFieldKit();
  return (
    <div style={shownStyle(isShown)}>
      <Form.Item label={t('aml.fields.sourcesOfFunds')} name="sourcesOfFunds" rules={[required]}>
        <Checkbox.Group options={choices('funds', FUNDS)} className="kyc-choice-list" data-testid="aml-funds" />
      </Form.Item>
      <Form.Item label={t('aml.fields.sourcesOfWealth')} name="sourcesOfWealth" rules={[required]}>
        <Checkbox.Group options={choices('wealth', WEALTH)} className="kyc-choice-list" data-testid="aml-wealth" />
      </Form.Item>
      <Form.Item label={t('aml.fields.volume')} name="expectedMonthlyVolumeUsdBand" rules={[required]}>
        <Radio.Group options={choices('volumes', VOLUMES)} className="kyc-choice-list" data-testid="aml-volume" />
      </Form.Item>
      <Form.Item label={t('aml.fields.purposes')} name="purposes" rules={[required]}>
        <Checkbox.Group
          options={choices('purposes', PURPOSES)}
          className="kyc-choice-list"
          data-testid="aml-purposes"
        />
      </Form.Item>
    </div>
  );
}

/** Step 3: politically exposed person, links to sanctioned countries and, when yes, which countries. */
export function AmlDeclarationFields({
  isShown,
  hasSanctionsLinks,
}: {
  isShown: boolean;
  hasSanctionsLinks: boolean | undefined;
}) {
  const { t, required, yesNo } = useAmlFieldKit();
  const countries = useCountryOptions();
  return (
    <div style={shownStyle(isShown)}>
      <Form.Item
        label={t('aml.fields.politicallyExposed')}
        extra={t('aml.politicallyExposedHint')}
        name="isPoliticallyExposed"
        rules={[required]}
      >
        <Radio.Group options={yesNo} data-testid="aml-pep" />
      </Form.Item>
      <Form.Item label={t('aml.fields.sanctionsLinks')} name="hasSanctionsLinks" rules={[required]}>
        <Radio.Group options={yesNo} data-testid="aml-sanctions" />
      </Form.Item>
      {hasSanctionsLinks === true && (
        <Form.Item label={t('aml.fields.sanctionsCountries')} name="sanctionsCountryLinks" rules={[required]}>
          <Select
            mode="multiple"
            showSearch
            optionFilterProp="label"
            options={countries.options}
            loading={countries.isPending}
            data-testid="aml-sanctions-countries"
          />
        </Form.Item>
      )}
    </div>
  );
}
