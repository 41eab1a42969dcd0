import { toLocale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import { Checkbox, Descriptions, Form, Input, Radio, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { QualifyValues } from '../lib/qualified-form.ts';
import { portfolioSchema, totalAssetsSchema } from '../lib/qualified-form.ts';
import { zodRule } from '../lib/zod-rule.ts';

/**
 * The qualified-investor declaration (step 1): individual or corporation, the HK$ amount of that
 * type (portfolio or total assets), and the declaration to tick. Stays mounted (hidden with
 * `display: none` when not `isShown`) so that its values are sent at the end.
 */
export function QualifiedDeclarationFields({ isShown, type }: { isShown: boolean; type: QualifyValues['type'] }) {
  const { t, i18n } = useTranslation('kyc');
  const locale = toLocale(i18n.language);
  const required = { required: true, message: validationMessage('validation.required', locale) };
  return (
    <div style={{ display: isShown ? undefined : 'none' }}>
      <Form.Item label={t('qualified.fields.type')} name="type" rules={[required]}>
        <Radio.Group
          className="kyc-choice-list"
          data-testid="qualified-type"
          options={[
            { value: 'individual', label: t('qualified.types.individual') },
            { value: 'corporation', label: t('qualified.types.corporation') },
          ]}
        />
      </Form.Item>
      {type !== 'corporation' ? (
        <Form.Item
          label={t('qualified.fields.portfolioHkd')}
          extra={t('qualified.portfolioHint')}
          name="portfolioHkd"
          rules={[required, zodRule(() => portfolioSchema, locale)]}
        >
          <Input inputMode="decimal" prefix="HK$" autoComplete="off" />
        </Form.Item>
      ) : (
        <Form.Item
          label={t('qualified.fields.totalAssetsHkd')}
          extra={t('qualified.assetsHint')}
          name="totalAssetsHkd"
          rules={[required, zodRule(() => totalAssetsSchema, locale)]}
        >
          <Input inputMode="decimal" prefix="HK$" autoComplete="off" />
        </Form.Item>
      )}
      <Form.Item
        name="isDeclared"
        valuePropName="checked"
        rules={[
          {
            validator: async (_rule, value: boolean | undefined) => {
              if (value !== true) throw new Error(validationMessage('validation.declaration', locale));
            },
          },
        ]}
      >
        <Checkbox data-testid="qualified-declare">{t(`qualified.declaration.${type ?? 'individual'}`)}</Checkbox>
      </Form.Item>
    </div>
  );
}

/** Props of {@link QualifiedReview}. */
export interface QualifiedReviewProps {
  type: QualifyValues['type'];
  /** The HK$ amount entered for `type` (decimal string); shown with its currency. */
  amount: string | undefined;
  /** The evidence files' names. */
  evidenceNames: string[];
}

/** The qualified-investor form's review (step 3): the type, the amount and the evidence files. */
export function QualifiedReview({ type, amount, evidenceNames }: QualifiedReviewProps) {
  const { t } = useTranslation('kyc');
  return (
    <div data-testid="kyc-review">
      <Typography.Paragraph>{t('basic.reviewHint')}</Typography.Paragraph>
      <Descriptions column={1} size="small" bordered className="kyc-review-list">
        <Descriptions.Item label={t('qualified.fields.type')}>
          {t(`qualified.types.${type ?? 'individual'}`)}
        </Descriptions.Item>
        <Descriptions.Item
          label={t(type === 'corporation' ? 'qualified.fields.totalAssetsHkd' : 'qualified.fields.portfolioHkd')}
        >
          {amount ? `HK$ ${amount}` : ''}
        </Descriptions.Item>
        <Descriptions.Item label={t('qualified.evidence')}>{evidenceNames.join(', ')}</Descriptions.Item>
      </Descriptions>
    </div>
  );
}
