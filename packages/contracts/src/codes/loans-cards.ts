import { type BusinessCodeEntry } from './common.ts';

/** The codes of loans and cards. Part of `BUSINESS_CODES` (`../codes.ts`). */
export const LOANS_CARDS_CODES = {
  // Loans: codes 184–199.
  LOAN_LTV_TOO_HIGH: {
    code: 184,
    httpStatus: 422,
    message: {
      'en-US': 'The loan-to-value ratio would be {ltv}%, above the allowed {max}%: add collateral or borrow less',
      'zh-HK': '貸款價值比率將為 {ltv}%，高於上限 {max}%：請增加抵押品或減少借款',
    },
  },
  LOAN_ABOVE_MAX: {
    code: 185,
    httpStatus: 422,
    message: {
      'en-US': 'Maximum order amount {amount} {unit}: your loans may total at most this much',
      'zh-HK': '最高訂單金額 {amount} {unit}：你的借款總額不可超過此數',
    },
  },
  LOAN_BELOW_MIN: {
    code: 186,
    httpStatus: 422,
    message: { 'en-US': 'Minimum order amount {amount} {unit}', 'zh-HK': '最低訂單金額 {amount} {unit}' },
  },
  LOAN_COIN_DISABLED: {
    code: 187,
    httpStatus: 409,
    message: { 'en-US': '{coin} cannot be borrowed at the moment', 'zh-HK': '暫時無法借入 {coin}' },
  },
  LOAN_POOL_INSUFFICIENT: {
    code: 188,
    httpStatus: 409,
    message: {
      'en-US': 'The lending pool cannot lend {amount} {unit} now; the order failed',
      'zh-HK': '借貸資金池目前無法借出 {amount} {unit}，訂單失敗',
    },
  },
  LOAN_NOT_REPAYABLE: {
    code: 189,
    httpStatus: 409,
    message: {
      'en-US': 'This loan is closed or being processed: it cannot be repaid or changed',
      'zh-HK': '此借款已結束或正在處理中：不能還款或更改',
    },
  },
  LOAN_REPAY_TOO_MUCH: {
    code: 190,
    httpStatus: 422,
    message: {
      'en-US': 'The amount is more than this loan owes ({debt} {unit})',
      'zh-HK': '金額多於此借款的欠款（{debt} {unit}）',
    },
  },
  CARD_PHYSICAL_LIMIT_REACHED: {
    code: 210,
    httpStatus: 409,
    message: {
      'en-US': 'You can apply for or bind at most {max} physical cards',
      'zh-HK': '你最多可申請或綁定 {max} 張實體卡',
    },
  },
  CARD_NOT_ACTIVE: {
    code: 211,
    httpStatus: 409,
    message: { 'en-US': 'This card is not active', 'zh-HK': '此卡未啟用' },
  },
  CARD_BIND_FAILED: {
    code: 212,
    httpStatus: 422,
    message: {
      'en-US': 'The card number or activation code is not correct, or the card is already bound',
      'zh-HK': '卡號或啟用碼不正確，或此卡已被綁定',
    },
  },
  CARD_QUOTE_USED: {
    code: 213,
    httpStatus: 409,
    message: { 'en-US': 'This top-up quote has already been used', 'zh-HK': '此充值報價已被使用' },
  },
  CARD_COIN_OFF_PEG: {
    code: 214,
    httpStatus: 409,
    message: {
      'en-US': '{coin} is outside its 1:1 band now: top-ups from it are paused',
      'zh-HK': '{coin} 現時偏離 1:1 範圍：暫停以其充值',
    },
  },
  CARD_CURRENCY_MISMATCH: {
    code: 215,
    httpStatus: 422,
    message: {
      'en-US': 'Amounts must be in the card’s currency ({currency})',
      'zh-HK': '金額須以此卡的貨幣（{currency}）計算',
    },
  },
  CARD_LIMIT_REQUEST_PENDING: {
    code: 216,
    httpStatus: 409,
    message: {
      'en-US': 'A limit change request for this card is already waiting for customer service',
      'zh-HK': '此卡已有待客戶服務處理的限額變更申請',
    },
  },
  CARD_CONFIRMATION_EXPIRED: {
    code: 217,
    httpStatus: 409,
    message: {
      'en-US': 'This payment confirmation has expired (5 minutes); the payment was declined',
      'zh-HK': '此付款確認已逾時（5 分鐘），付款已被拒絕',
    },
  },
  CARD_CONFIRMATION_STATE_CHANGED: {
    code: 218,
    httpStatus: 409,
    message: { 'en-US': 'This payment has already been answered', 'zh-HK': '此付款已回覆' },
  },
  CARD_LIMIT_REQUEST_STATE_CHANGED: {
    code: 219,
    httpStatus: 409,
    message: { 'en-US': 'This limit change request has already been decided', 'zh-HK': '此限額變更申請已有決定' },
  },
  CARD_STATUS_STEP_NOT_ALLOWED: {
    code: 220,
    httpStatus: 409,
    message: {
      'en-US': 'This card cannot move from {from} to {to}',
      'zh-HK': '此卡不能由 {from} 轉為 {to}',
    },
  },
  CARD_PIN_NOT_BLOCKED: {
    code: 221,
    httpStatus: 409,
    message: { 'en-US': 'This card’s PIN is not blocked', 'zh-HK': '此卡的密碼未被鎖定' },
  },
  CARD_SUSPENSE_RESOLVED: {
    code: 222,
    httpStatus: 409,
    message: { 'en-US': 'This suspense item has already been resolved', 'zh-HK': '此暫記項目已經處理' },
  },
  CARD_SUSPENSE_NO_CARD: {
    code: 223,
    httpStatus: 409,
    message: {
      'en-US': 'No Meridian card matches this item’s card token: write it off instead',
      'zh-HK': '沒有 Meridian 卡片與此項目的卡片代碼相符，請改為撇帳',
    },
  },
} as const satisfies Record<string, BusinessCodeEntry>;
