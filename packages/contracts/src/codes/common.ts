import type { LocalizedText } from '../locale.ts';
import { KYC_REQUIRED_CODE } from '../client-codes.ts';

/** One entry of the business-code catalogue: the code in `statusCode`, the HTTP status set with it, the message in both languages. */
export interface BusinessCodeEntry {
  code: number;
  httpStatus: number;
  message: LocalizedText;
}

/** The platform-wide codes: success, sign-in and security, wallet, exchange and prices, identity verification. Part of `BUSINESS_CODES` (`../codes.ts`). */
export const COMMON_CODES = {
  OK: { code: 200, httpStatus: 200, message: { 'en-US': 'Success', 'zh-HK': '操作成功' } },
  LOGIN_EXPIRED: { code: 101, httpStatus: 401, message: { 'en-US': 'Login has expired', 'zh-HK': '登入已過期' } },
  FORBIDDEN: {
    code: 102,
    httpStatus: 403,
    message: { 'en-US': 'You do not have permission to do this', 'zh-HK': '你沒有執行此操作的權限' },
  },
  ACCOUNT_LOCKED: {
    code: 103,
    httpStatus: 423,
    message: {
      'en-US': 'This account is temporarily locked, please try again later',
      'zh-HK': '此帳戶已暫時鎖定，請稍後再試',
    },
  },
  NOT_FOUND: { code: 104, httpStatus: 404, message: { 'en-US': 'Not found', 'zh-HK': '找不到相關內容' } },
  VERIFICATION_REQUIRED: {
    code: 105,
    httpStatus: 403,
    message: { 'en-US': 'Please verify your identity', 'zh-HK': '請先完成身份認證' },
  },
  SECURITY_HOLD: {
    code: 106,
    httpStatus: 403,
    message: {
      'en-US': 'Withdrawals are on hold after a recent security change until {until}',
      'zh-HK': '由於近期更改了安全設定，提幣暫停至 {until}',
    },
  },
  SERVICE_UNAVAILABLE: {
    code: 107,
    httpStatus: 503,
    message: { 'en-US': 'This function is temporarily unavailable', 'zh-HK': '此功能暫時無法使用' },
  },
  RATE_LIMITED: {
    code: 108,
    httpStatus: 429,
    message: { 'en-US': 'Too many requests, please try again later', 'zh-HK': '請求過於頻繁，請稍後再試' },
  },
  LOGIN_FAILED: {
    code: 110,
    httpStatus: 401,
    message: { 'en-US': 'Incorrect email or password', 'zh-HK': '電郵或密碼不正確' },
  },
  ACCOUNT_NOT_EMPTY: {
    code: 111,
    httpStatus: 409,
    message: {
      'en-US': 'The account cannot be deleted while it still holds: {reasons}',
      'zh-HK': '帳戶仍持有以下項目，無法刪除：{reasons}',
    },
  },
  CODE_RESEND_WAIT: {
    code: 112,
    httpStatus: 429,
    message: {
      'en-US': 'Please wait {seconds} seconds before asking for a new code',
      'zh-HK': '請於 {seconds} 秒後再索取新的驗證碼',
    },
  },
  CAPTCHA_FAILED: {
    code: 119,
    httpStatus: 400,
    message: { 'en-US': 'Verification failed, please try again', 'zh-HK': '驗證失敗，請重試' },
  },
  VALIDATION_FAILED: {
    code: 120,
    httpStatus: 422,
    message: { 'en-US': '{field}: {reason}', 'zh-HK': '{field}：{reason}' },
  },
  CONFLICT: {
    code: 121,
    httpStatus: 409,
    message: { 'en-US': 'This request conflicts with an earlier one', 'zh-HK': '此請求與先前的請求衝突' },
  },
  BAD_REQUEST: {
    code: 122,
    httpStatus: 400,
    message: { 'en-US': 'The request could not be understood', 'zh-HK': '無法處理此請求' },
  },
  INSUFFICIENT_BALANCE: {
    code: 130,
    httpStatus: 422,
    message: { 'en-US': 'Insufficient Balance', 'zh-HK': '餘額不足' },
  },
  QUOTE_EXPIRED: {
    code: 131,
    httpStatus: 409,
    message: { 'en-US': 'This quote has expired, please get a new quote', 'zh-HK': '報價已過期，請重新取得報價' },
  },
  AMOUNT_BELOW_MIN: {
    code: 132,
    httpStatus: 422,
    message: { 'en-US': 'Minimum order amount {amount} {unit}', 'zh-HK': '最小下單金額 {amount} {unit}' },
  },
  AMOUNT_ABOVE_MAX: {
    code: 133,
    httpStatus: 422,
    message: { 'en-US': 'Maximum order amount {amount} {unit}', 'zh-HK': '最大下單金額 {amount} {unit}' },
  },
  PRICE_UNAVAILABLE: {
    code: 134,
    httpStatus: 503,
    message: {
      'en-US': 'Prices are unavailable right now, please try again shortly',
      'zh-HK': '暫時無法取得價格，請稍後再試',
    },
  },
  WITHDRAW_UNAVAILABLE: {
    code: 135,
    httpStatus: 503,
    message: { 'en-US': 'Coin withdrawals are temporarily unavailable', 'zh-HK': '暫停提幣' },
  },
  DEPOSIT_UNAVAILABLE: {
    code: 136,
    httpStatus: 422,
    message: { 'en-US': 'Deposits of this coin on this network are unavailable', 'zh-HK': '此幣種在此網絡暫停充值' },
  },
  WEBHOOK_SIGNATURE_INVALID: {
    code: 137,
    httpStatus: 401,
    message: { 'en-US': 'Webhook signature or timestamp invalid', 'zh-HK': 'Webhook 簽名或時間戳無效' },
  },
  WITHDRAW_STATE_CHANGED: {
    code: 138,
    httpStatus: 409,
    message: {
      'en-US': 'This withdrawal can no longer be changed this way',
      'zh-HK': '此提幣狀態已變更，無法執行此操作',
    },
  },
  UNKNOWN_DEPOSIT_ADDRESS: {
    code: 139,
    httpStatus: 422,
    message: { 'en-US': 'The address does not belong to any account', 'zh-HK': '此地址不屬於任何帳戶' },
  },
  SLIPPAGE_EXCEEDED: {
    code: 140,
    httpStatus: 409,
    message: {
      'en-US': 'The price moved beyond your maximum slippage, please check the new rate and try again',
      'zh-HK': '價格變動超出你設定的最大滑點，請查看最新匯率後再試',
    },
  },
  KYC_LOCKED: {
    code: 141,
    httpStatus: 409,
    message: {
      'en-US': 'Your identity verification is under review or already verified and cannot be changed now',
      'zh-HK': '你的身份認證正在審核中或已通過，暫時無法修改',
    },
  },
  KYC_STATE_CHANGED: {
    code: 142,
    httpStatus: 409,
    message: { 'en-US': 'This submission is no longer under review', 'zh-HK': '此申請已不在審核中' },
  },
  KYC_REQUIRED: {
    code: KYC_REQUIRED_CODE,
    httpStatus: 403,
    message: {
      'en-US': 'Complete {stepEn} first to use this',
      'zh-HK': '請先完成{stepZh}，方可使用此功能',
    },
  },
  KYC_NOT_VERIFIED: {
    code: 148,
    httpStatus: 409,
    message: {
      'en-US': 'Your identity must be verified before you report a change to it',
      'zh-HK': '你的身份須先通過認證，方可申報變更',
    },
  },
  WITHDRAW_LIMIT_EXCEEDED: {
    code: 150,
    httpStatus: 422,
    message: {
      'en-US': 'Over your withdrawal limit: USD {leftUsd} left {windowEn}',
      'zh-HK': '超出提幣限額：{windowZh}尚餘 USD {leftUsd}',
    },
  },
  SCREENING_ALERT_STATE_CHANGED: {
    code: 151,
    httpStatus: 409,
    message: { 'en-US': 'This alert has already been decided', 'zh-HK': '此警示已有決定' },
  },
  ACCOUNT_FROZEN: {
    code: 152,
    httpStatus: 423,
    message: {
      'en-US': 'Your account is frozen: you can sign in and view it, but not move funds. Please contact support',
      'zh-HK': '你的帳戶已被凍結：可以登入及查看，但不能轉移資金。請聯絡客服',
    },
  },
  FOUR_EYES_REQUIRED: {
    code: 153,
    httpStatus: 409,
    message: {
      'en-US': 'A different operator must approve this',
      'zh-HK': '須由另一位操作員批准',
    },
  },
  ADJUSTMENT_STATE_CHANGED: {
    code: 154,
    httpStatus: 409,
    message: { 'en-US': 'This adjustment has already been decided', 'zh-HK': '此調整已有決定' },
  },
  SECOND_APPROVAL_REQUIRED: {
    code: 155,
    httpStatus: 409,
    message: {
      'en-US': 'This large withdrawal needs a second operator’s approval first',
      'zh-HK': '此大額提幣須先經另一位操作員批准',
    },
  },
  SETTING_CHANGE_STATE_CHANGED: {
    code: 156,
    httpStatus: 409,
    message: { 'en-US': 'This settings change has already been decided', 'zh-HK': '此設定變更已有決定' },
  },
} as const satisfies Record<string, BusinessCodeEntry>;
