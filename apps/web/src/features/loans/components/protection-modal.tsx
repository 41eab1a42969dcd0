import {
  LOAN_PROTECTION_TRIGGER_PCT_MAX,
  LOAN_PROTECTION_TRIGGER_PCT_MIN,
  type LoanOrder,
  type LoanProtection,
  type LoanProtectionBody,
  loanEndpoints,
  loanProtectionBodySchema,
} from '@meridian/contracts/loans';
import { toLocale } from '@meridian/contracts/locale';
import { Alert, Button, Form, Input, InputNumber, Radio, Result, Skeleton, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal.tsx';
import { useModalForm } from '../../../hooks/use-modal-form.ts';
import { useProtection } from '../api/get-protection.ts';
import { useInvalidateLoans } from '../api/loan-keys.ts';
import { contractErrors } from '../../../lib/contract-errors.ts';

/** Bounds of the target LTV (the contract: 10–70 %, below the trigger). */
const TARGET_PCT_MIN = 10;
const TARGET_PCT_MAX = 70;

/** What the rule does, as the form offers it: the action, and for REPAY its source (wallet or current fund). */
const PLANS = ['ADD_COLLATERAL', 'REPAY_WALLET', 'REPAY_FUND'] as const;
type Plan = (typeof PLANS)[number];
const PLAN_LABEL: Record<Plan, string> = {
  ADD_COLLATERAL: 'protect.addCollateral',
  REPAY_WALLET: 'protect.repayWallet',
  REPAY_FUND: 'protect.repayFund',
};

function planOf(rule: LoanProtection | null): Plan {
  if (!rule || rule.action === 'ADD_COLLATERAL') return 'ADD_COLLATERAL';
  return rule.repaySource === 'FUND' ? 'REPAY_FUND' : 'REPAY_WALLET';
}

interface ProtectionValues {
  isEnabled: boolean;
  /** The form's field `action`: the contract's action and repay source in one choice. */
  action: Plan;
  triggerLtvPct: number;
  targetLtvPct: number;
  maxAmount: string;
}

/**
 * A loan's protection rule: when the LTV reaches X % (75–88), move up to N BTC from
 * the wallet into collateral, or repay up to M of the loan coin from the wallet or from the current
 * fund (shares redeemed 1:1), to bring the LTV back to Y %. Saved through the security check (LOAN_ADJUST); the contract's schema checks the
 * values first and the server's refusals go under their fields.
 */
export function ProtectionModal({ loan, onClose }: { loan: LoanOrder; onClose: () => void }) {
  const { t } = useTranslation('loans');
  const rule = useProtection(loan.orderId);
  return (
    <AppModal open title={t('protect.title')} footer={null} onCancel={onClose} data-testid="protection-modal">
      {rule.isPending ? <Skeleton active /> : <ProtectionForm loan={loan} rule={rule.data ?? null} onClose={onClose} />}
    </AppModal>
  );
}

function ProtectionForm({
  loan,
  rule,
  onClose,
}: {
  loan: LoanOrder;
  rule: LoanProtection | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('loans');
  const locale = toLocale(i18n.language);
  const invalidate = useInvalidateLoans();
  const protection = useModalForm<ProtectionValues, typeof loanEndpoints.setProtection>({
    endpoint: loanEndpoints.setProtection,
    quietSuccess: true,
    // The repay source is chosen with the action; the order is not on the form.
    fieldOf: (field) => (field === 'repaySource' ? 'action' : field === 'orderId' ? undefined : field),
    onSuccess: invalidate,
    onClose,
  });
  const { form, result: saved } = protection;
  const action: Plan = Form.useWatch('action', form) ?? planOf(rule);
  const unit = action === 'ADD_COLLATERAL' ? 'BTC' : loan.loanCoin;

  const save = (values: ProtectionValues) => {
    const body: LoanProtectionBody = {
      orderId: loan.orderId,
      isEnabled: values.isEnabled,
      action: values.action === 'ADD_COLLATERAL' ? 'ADD_COLLATERAL' : 'REPAY',
      ...(values.action === 'REPAY_FUND' && { repaySource: 'FUND' as const }),
      triggerLtvPct: values.triggerLtvPct,
      targetLtvPct: values.targetLtvPct,
      maxAmount: values.maxAmount.trim(),
    };
    const errors = contractErrors(loanProtectionBodySchema, body, locale);
    if (errors.length > 0) {
      form.setFields(errors.map((error) => ({ name: error.name as keyof ProtectionValues, errors: error.errors })));
      return;
    }
    protection.submit({ body });
  };

  if (saved) return <ProtectionSaved saved={saved} onClose={protection.close} />;
  return (
    <Form<ProtectionValues>
      {...protection.formProps}
      layout="vertical"
      requiredMark={false}
      onFinish={save}
      initialValues={{
        isEnabled: rule?.isEnabled ?? true,
        action: planOf(rule),
        triggerLtvPct: rule?.triggerLtvPct ?? 80,
        targetLtvPct: rule?.targetLtvPct ?? 65,
        maxAmount: rule?.maxAmount ?? '',
      }}
      data-testid="protection-form"
    >
      <p>{t('protect.intro')}</p>
      <Form.Item name="isEnabled" label={t('protect.enabled')} valuePropName="checked">
        <Switch data-testid="protection-enabled" />
      </Form.Item>
      <Form.Item name="triggerLtvPct" label={t('protect.trigger')}>
        <InputNumber
          min={LOAN_PROTECTION_TRIGGER_PCT_MIN}
          max={LOAN_PROTECTION_TRIGGER_PCT_MAX}
          precision={0}
          style={{ width: '100%' }}
          data-testid="protection-trigger"
        />
      </Form.Item>
      <Form.Item name="action" label={t('protect.action')}>
        <Radio.Group
          data-testid="protection-action"
          options={PLANS.map((value) => ({ value, label: t(PLAN_LABEL[value]) }))}
        />
      </Form.Item>
      {action === 'REPAY_FUND' && (
        <Alert
          type="info"
          showIcon
          message={t('protect.fundNote', { coin: loan.loanCoin })}
          style={{ marginBottom: 16 }}
        />
      )}
      <Form.Item
        name="maxAmount"
        label={action === 'ADD_COLLATERAL' ? t('protect.maxBtc') : t('protect.maxRepay')}
        rules={[{ required: true, message: t('calc.rules.required') }]}
      >
        <Input inputMode="decimal" autoComplete="off" suffix={unit} data-testid="protection-max" />
      </Form.Item>
      <Form.Item
        name="targetLtvPct"
        label={t('protect.target')}
        dependencies={['triggerLtvPct']}
        rules={[
          ({ getFieldValue }) => ({
            validator: async (_rule, value: number | null) => {
              if (value !== null && value >= Number(getFieldValue('triggerLtvPct'))) {
                throw new Error(t('protect.targetBelowTrigger'));
              }
            },
          }),
        ]}
      >
        <InputNumber
          min={TARGET_PCT_MIN}
          max={TARGET_PCT_MAX}
          precision={0}
          style={{ width: '100%' }}
          data-testid="protection-target"
        />
      </Form.Item>
      {protection.error && <Alert type="error" showIcon message={protection.error} style={{ marginBottom: 12 }} />}
      <Button type="primary" htmlType="submit" block loading={protection.isPending} data-testid="protection-save">
        {t('protect.save')}
      </Button>
    </Form>
  );
}

/** The rule saved: whether protection is on, and at which LTV. */
function ProtectionSaved({ saved, onClose }: { saved: LoanProtection; onClose: () => void }) {
  const { t } = useTranslation('loans');
  return (
    <Result
      status="success"
      title={t('protect.saved')}
      subTitle={saved.isEnabled ? t('loans.protectOn', { pct: saved.triggerLtvPct }) : undefined}
      extra={
        <Button type="primary" onClick={onClose} data-testid="protection-done">
          {t('borrow.done')}
        </Button>
      }
    />
  );
}
