import {
  BankOutlined,
  CreditCardOutlined,
  DownloadOutlined,
  FundOutlined,
  IdcardOutlined,
  NotificationOutlined,
  SafetyCertificateOutlined,
  SafetyOutlined,
  SwapOutlined,
  UploadOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { NoticeCategory } from '@meridian/contracts/notices';
import type { ComponentType } from 'react';

/**
 * The icon of each message category in the message centre, beside its name (the money categories'
 * events are listed in docs/notices.md "Money events"). Every category has one.
 */
export const CATEGORY_ICONS = {
  SECURITY: SafetyOutlined,
  ACCOUNT: UserOutlined,
  DEPOSIT: DownloadOutlined,
  WITHDRAW: UploadOutlined,
  EXCHANGE: SwapOutlined,
  FUND: FundOutlined,
  LOAN: BankOutlined,
  KYC: IdcardOutlined,
  CARD: CreditCardOutlined,
  TRUST: SafetyCertificateOutlined,
  SYSTEM: NotificationOutlined,
} satisfies Record<NoticeCategory, ComponentType<{ 'aria-hidden'?: boolean }>>;

/** A message category's icon, decorative (the category's name is written next to it). */
export function CategoryIcon({ category }: { category: NoticeCategory }) {
  const Icon = CATEGORY_ICONS[category];
  return <Icon aria-hidden data-testid="message-category-icon" data-category={category} />;
}
