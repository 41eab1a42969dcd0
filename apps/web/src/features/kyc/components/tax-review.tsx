import { Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCountryOptions } from '../../../lib/get-countries.ts';
import type { TaxFormKind, TaxPageValues } from '../lib/tax-form.ts';

/** The tax form's review (step 3): the form decided, then the W-9's basis and TIN or each residence's TIN or reason. */
export function TaxReview({ kind, values }: { kind: TaxFormKind; values: TaxPageValues }) {
  const { t } = useTranslation('kyc');
  const countries = useCountryOptions();
  return (
    <div data-testid="kyc-review">
      <Typography.Paragraph>{t('tax.reviewHint')}</Typography.Paragraph>
      <Descriptions column={1} size="small" bordered className="kyc-review-list">
        <Descriptions.Item label={t('tax.fields.form')}>{t(`tax.forms.${kind.form}`)}</Descriptions.Item>
        {kind.form === 'W9' ? (
          <>
            <Descriptions.Item label={t('tax.fields.usPersonBasis')}>
              {t(`tax.basis.${kind.usPersonBasis}`)}
            </Descriptions.Item>
            <Descriptions.Item label={t('tax.fields.tin')}>{values.tin ?? ''}</Descriptions.Item>
          </>
        ) : (
          (values.residences ?? []).map((residence, index) => (
            <Descriptions.Item key={index} label={countries.nameOf(residence?.country)}>
              {residence?.tin ? residence.tin : residence?.noTinReason ? t(`tax.reasons.${residence.noTinReason}`) : ''}
            </Descriptions.Item>
          ))
        )}
      </Descriptions>
    </div>
  );
}
