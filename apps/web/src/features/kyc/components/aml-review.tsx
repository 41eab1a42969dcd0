import { Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCountryOptions } from '../../../lib/get-countries.ts';
import type { AmlValues } from '../lib/aml-answers.ts';

/** The AML questionnaire's review: every answer by its label, the sanctioned countries by name. */
export function AmlReview({ values }: { values: AmlValues }) {
  const { t } = useTranslation('kyc');
  const countryOptions = useCountryOptions();
  const labelsOf = (group: string, chosen: readonly string[] | undefined) =>
    (chosen ?? []).map((value) => t(`aml.${group}.${value}`)).join(', ');
  const yesNo = (value: boolean | undefined) => (value === undefined ? '' : t(value ? 'common.yes' : 'common.no'));
  const countries = values.hasSanctionsLinks
    ? (values.sanctionsCountryLinks ?? []).map((code) => countryOptions.nameOf(code)).join(', ')
    : '';
  return (
    <Descriptions column={1} size="small" bordered className="kyc-review-list">
      <Descriptions.Item label={t('aml.fields.occupation')}>
        {labelsOf('occupations', values.occupation?.status ? [values.occupation.status] : [])}
      </Descriptions.Item>
      <Descriptions.Item label={t('aml.fields.industry')}>
        {labelsOf('industries', values.occupation?.industry ? [values.occupation.industry] : [])}
      </Descriptions.Item>
      <Descriptions.Item label={t('aml.fields.employer')}>{values.employer ?? ''}</Descriptions.Item>
      <Descriptions.Item label={t('aml.fields.sourcesOfFunds')}>
        {labelsOf('funds', values.sourcesOfFunds)}
      </Descriptions.Item>
      <Descriptions.Item label={t('aml.fields.sourcesOfWealth')}>
        {labelsOf('wealth', values.sourcesOfWealth)}
      </Descriptions.Item>
      <Descriptions.Item label={t('aml.fields.volume')}>
        {labelsOf('volumes', values.expectedMonthlyVolumeUsdBand ? [values.expectedMonthlyVolumeUsdBand] : [])}
      </Descriptions.Item>
      <Descriptions.Item label={t('aml.fields.purposes')}>{labelsOf('purposes', values.purposes)}</Descriptions.Item>
      <Descriptions.Item label={t('aml.fields.politicallyExposed')}>
        {yesNo(values.isPoliticallyExposed)}
      </Descriptions.Item>
      <Descriptions.Item label={t('aml.fields.sanctionsLinks')}>
        {yesNo(values.hasSanctionsLinks)}
        {countries && ` · ${countries}`}
      </Descriptions.Item>
    </Descriptions>
  );
}
