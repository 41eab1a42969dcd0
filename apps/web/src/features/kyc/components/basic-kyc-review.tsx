import type { BasicKycDraft, KycDocument, KycDocumentKind } from '@meridian/contracts/kyc';
import { Descriptions, type FormInstance, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCountryOptions } from '../../../lib/get-countries.ts';
import { BASIC_FIELDS } from '../lib/basic-kyc-steps.ts';

/** Props of {@link BasicKycReview}. */
export interface BasicKycReviewProps {
  /** The basic KYC form, read when shown (its items stay mounted on every step). */
  form: FormInstance<BasicKycDraft>;
  /** The document kinds the ID type needs, each listed with the file uploaded for it. */
  neededKinds: readonly KycDocumentKind[];
  documents: KycDocument[];
}

/** The basic KYC form's review step: every field as entered (countries and ID type by name), then the documents. */
export function BasicKycReview({ form, neededKinds, documents }: BasicKycReviewProps) {
  const { t } = useTranslation('kyc');
  const countries = useCountryOptions();
  return (
    <div data-testid="kyc-review">
      <Typography.Paragraph>{t('basic.reviewHint')}</Typography.Paragraph>
      <Descriptions column={1} size="small" bordered>
        {BASIC_FIELDS.map((name) => {
          const value = form.getFieldValue(name) as string | undefined;
          const shown =
            name === 'nationality' || name === 'residence'
              ? countries.nameOf(value)
              : name === 'idType' && value
                ? t(`basic.idTypes.${value}`)
                : (value ?? '');
          return (
            <Descriptions.Item key={name} label={t(`basic.fields.${name}`)}>
              {shown}
            </Descriptions.Item>
          );
        })}
        {neededKinds.map((kind) => (
          <Descriptions.Item key={kind} label={t(`basic.documents.${kind}`)}>
            {documents.find((document) => document.kind === kind)?.fileName ?? ''}
          </Descriptions.Item>
        ))}
      </Descriptions>
    </div>
  );
}
