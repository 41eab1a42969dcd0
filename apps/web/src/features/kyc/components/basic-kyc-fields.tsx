import {
  dateOfBirthSchema,
  englishNameSchema,
  ID_TYPES,
  idNumberSchemaFor,
  type IdType,
} from '@meridian/contracts/kyc-rules';
import { toLocale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCountryOptions } from '../../../lib/get-countries.ts';
import { zodRule } from '../lib/zod-rule.ts';

// The basic KYC form's fields, one component per step. Every step's items stay mounted (hidden), so
// that each is validated and saved with the draft: `isHidden` hides them, it never unmounts them.

/** The rules' locale and the "required" rule, in the UI's language. */
function useRules() {
  const { t, i18n } = useTranslation('kyc');
  const locale = toLocale(i18n.language);
  const required = { required: true, message: validationMessage('validation.required', locale) };
  return { t, locale, required };
}

/** Step 1: English and Chinese names, date of birth, nationality and residence. */
export function BasicPersonalFields({ isHidden }: { isHidden: boolean }) {
  const { t, locale, required } = useRules();
  const countries = useCountryOptions();
  return (
    <>
      <Form.Item
        label={t('basic.fields.firstName')}
        name="firstName"
        rules={[required, zodRule(() => englishNameSchema, locale)]}
        hidden={isHidden}
      >
        <Input autoComplete="given-name" />
      </Form.Item>
      <Form.Item
        label={t('basic.fields.lastName')}
        name="lastName"
        rules={[required, zodRule(() => englishNameSchema, locale)]}
        hidden={isHidden}
      >
        <Input autoComplete="family-name" />
      </Form.Item>
      <Form.Item
        label={t('basic.fields.nameChinese')}
        name="nameChinese"
        rules={[{ max: 50, message: validationMessage('validation.tooLong', locale) }]}
        hidden={isHidden}
      >
        <Input />
      </Form.Item>
      <Form.Item
        label={t('basic.fields.dateOfBirth')}
        name="dateOfBirth"
        rules={[required, zodRule(() => dateOfBirthSchema(), locale)]}
        hidden={isHidden}
      >
        <Input type="date" autoComplete="bday" />
      </Form.Item>
      <Form.Item label={t('basic.fields.nationality')} name="nationality" rules={[required]} hidden={isHidden}>
        <Select
          showSearch
          optionFilterProp="label"
          options={countries.options}
          loading={countries.isPending}
          data-testid="kyc-nationality"
        />
      </Form.Item>
      <Form.Item label={t('basic.fields.residence')} name="residence" rules={[required]} hidden={isHidden}>
        <Select
          showSearch
          optionFilterProp="label"
          options={countries.options}
          loading={countries.isPending}
          data-testid="kyc-residence"
        />
      </Form.Item>
    </>
  );
}

/** Step 2: the ID document's type and number (the number's rule follows the type chosen, passport by default). */
export function BasicIdFields({ isHidden, idType }: { isHidden: boolean; idType: IdType | undefined }) {
  const { t, locale, required } = useRules();
  return (
    <>
      <Form.Item label={t('basic.fields.idType')} name="idType" rules={[required]} hidden={isHidden}>
        <Select
          options={ID_TYPES.map((type) => ({ value: type, label: t(`basic.idTypes.${type}`) }))}
          data-testid="kyc-id-type"
        />
      </Form.Item>
      <Form.Item
        label={t('basic.fields.idNumber')}
        name="idNumber"
        dependencies={['idType']}
        rules={[
          required,
          zodRule(() => idNumberSchemaFor(idType && ID_TYPES.includes(idType) ? idType : 'passport'), locale),
        ]}
        hidden={isHidden}
      >
        <Input autoComplete="off" />
      </Form.Item>
    </>
  );
}

/** Step 3: the residential address and the date of its proof. */
export function BasicAddressFields({ isHidden }: { isHidden: boolean }) {
  const { t, locale, required } = useRules();
  return (
    <>
      <Form.Item
        label={t('basic.fields.address')}
        name="address"
        rules={[required, { max: 200, message: validationMessage('validation.tooLong', locale) }]}
        hidden={isHidden}
      >
        <Input.TextArea rows={3} autoComplete="street-address" />
      </Form.Item>
      <Form.Item
        label={t('basic.fields.proofOfAddressDate')}
        name="proofOfAddressDate"
        rules={[required]}
        hidden={isHidden}
      >
        <Input type="date" />
      </Form.Item>
    </>
  );
}
