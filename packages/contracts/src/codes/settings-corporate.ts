import { type BusinessCodeEntry } from './common.ts';

/** The codes of the card settings, corporate PRO accounts and employee cards, and the server error. Part of `BUSINESS_CODES` (`../codes.ts`). */
export const SETTINGS_CORPORATE_CODES = {
  // Card settings: codes 310–319.
  CARD_CURRENCY_NOT_OFFERED: {
    code: 310,
    httpStatus: 422,
    message: {
      'en-US': 'Virtual cards are not issued in {currency} at the moment; choose one of {currencies}',
      'zh-HK': '目前不發行 {currency} 虛擬卡，請從 {currencies} 中選擇',
    },
  },
  API_KEY_INVALID: {
    code: 270,
    httpStatus: 401,
    message: { 'en-US': 'The API key is unknown or switched off', 'zh-HK': 'API 金鑰不存在或已停用' },
  },
  API_SIGNATURE_INVALID: {
    code: 271,
    httpStatus: 401,
    message: { 'en-US': 'The request signature does not match', 'zh-HK': '請求簽名不符' },
  },
  API_TIMESTAMP_OUTSIDE_WINDOW: {
    code: 272,
    httpStatus: 401,
    message: {
      'en-US': 'The request timestamp is more than {windowMs} ms from the server time',
      'zh-HK': '請求時間戳與伺服器時間相差超過 {windowMs} 毫秒',
    },
  },
  API_REQUEST_REPLAYED: {
    code: 273,
    httpStatus: 401,
    message: { 'en-US': 'This signed request was already used', 'zh-HK': '此簽名請求已被使用' },
  },
  API_IP_NOT_ALLOWED: {
    code: 274,
    httpStatus: 403,
    message: { 'en-US': 'This API key may not be used from IP {ip}', 'zh-HK': '此 API 金鑰不可從 IP {ip} 使用' },
  },
  API_SCOPE_MISSING: {
    code: 275,
    httpStatus: 403,
    message: {
      'en-US': 'This API key lacks the permission this call needs: {scope}',
      'zh-HK': '此 API 金鑰沒有此操作所需的權限：{scope}',
    },
  },
  API_KEY_NOT_ACCEPTED: {
    code: 276,
    httpStatus: 403,
    message: { 'en-US': 'This call cannot be made with an API key', 'zh-HK': '此操作不可使用 API 金鑰' },
  },
  API_KEY_LIMIT_REACHED: {
    code: 277,
    httpStatus: 409,
    message: { 'en-US': 'You can keep at most {max} API keys', 'zh-HK': '你最多可保留 {max} 個 API 金鑰' },
  },
  FREEZE_LINK_INVALID: {
    code: 278,
    httpStatus: 410,
    message: {
      'en-US': 'This freeze link is unknown, already used or expired',
      'zh-HK': '此凍結連結無效、已使用或已過期',
    },
  },
  SUPPORT_REQUEST_OPEN: {
    code: 300,
    httpStatus: 409,
    message: {
      'en-US': 'You already have an open account deletion request',
      'zh-HK': '你已有一項處理中的刪除帳戶申請',
    },
  },
  SUPPORT_REQUEST_STATE_CHANGED: {
    code: 301,
    httpStatus: 409,
    message: {
      'en-US': 'This request is already {status}: it cannot be changed',
      'zh-HK': '此申請已是「{status}」狀態，不能再更改',
    },
  },
  SUPPORT_ACCOUNT_NOT_ACTIVE: {
    code: 302,
    httpStatus: 409,
    message: {
      'en-US': 'This account is frozen or already closed: it cannot be deleted now',
      'zh-HK': '此帳戶已凍結或已刪除，現時不能刪除',
    },
  },
  // Corporate PRO accounts and employee cards (docs/corporate.md): codes 280–289.
  PRO_APPLICATION_OPEN: {
    code: 280,
    httpStatus: 409,
    message: {
      'en-US': 'You already have a PRO account application under review',
      'zh-HK': '你已有一份 PRO 帳戶申請正在審核中',
    },
  },
  PRO_ACCOUNT_ACTIVE: {
    code: 281,
    httpStatus: 409,
    message: { 'en-US': 'Your PRO account is already approved', 'zh-HK': '你的 PRO 帳戶已獲批核' },
  },
  PRO_APPLICATION_STATE_CHANGED: {
    code: 282,
    httpStatus: 409,
    message: { 'en-US': 'This PRO application has already been decided', 'zh-HK': '此 PRO 帳戶申請已有決定' },
  },
  PRO_ACCOUNT_REQUIRED: {
    code: 283,
    httpStatus: 403,
    message: {
      'en-US': 'Employee cards need an approved PRO account',
      'zh-HK': '員工卡需要已獲批核的 PRO 帳戶',
    },
  },
  IDEMPOTENCY_IN_PROGRESS: {
    code: 290,
    httpStatus: 409,
    message: {
      'en-US': 'This request is still being processed, please try again in a moment',
      'zh-HK': '此請求仍在處理中，請稍後再試',
    },
  },
  // Chain back office: codes 330–332.
  CHAIN_ITEM_STATE_CHANGED: {
    code: 330,
    httpStatus: 409,
    message: {
      'en-US': 'This chain item has already been decided',
      'zh-HK': '此鏈上項目已有決定',
    },
  },
  CHAIN_DEPOSIT_NOT_CREDITABLE: {
    code: 331,
    httpStatus: 422,
    message: {
      'en-US': 'This deposit cannot be credited: its token is not a supported coin',
      'zh-HK': '此充值無法入帳：其代幣並非支援的幣種',
    },
  },
  CHAIN_SECOND_APPROVAL_REQUIRED: {
    code: 332,
    httpStatus: 409,
    message: {
      'en-US': 'This large deposit needs a second operator’s approval first',
      'zh-HK': '此大額充值須先經另一位操作員批准',
    },
  },
  INTERNAL: {
    code: 500,
    httpStatus: 500,
    message: { 'en-US': 'Server error, please try again later', 'zh-HK': '伺服器錯誤，請稍後再試' },
  },
} as const satisfies Record<string, BusinessCodeEntry>;
