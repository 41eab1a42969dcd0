import { KYC_REQUIRED_CODE } from './client-codes.ts';
import { interpolate, type Locale, type LocalizedText } from './locale.ts';

/**
 * The business-code catalogue (ARCHITECTURE §5). Every API answer carries one of these
 * codes in `statusCode`; the HTTP status is set alongside so that proxies and logs stay meaningful.
 * The web client treats 101 as "login expired" and shows 103 and 105–108 as notifications; every
 * other non-200 code is a toast.
 *
 * Messages may hold `{name}` placeholders filled from the error's params.
 */
export const BUSINESS_CODES = {
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
  // Funds: codes 160–174.
  FUND_BELOW_MIN_PURCHASE: {
    code: 160,
    httpStatus: 422,
    message: {
      'en-US': 'Below minimum purchase share: at least {amount} {unit}',
      'zh-HK': '低於最低認購份額：最少 {amount} {unit}',
    },
  },
  FUND_ABOVE_MAX_PURCHASE: {
    code: 161,
    httpStatus: 422,
    message: {
      'en-US': 'Above maximum purchase share: at most {amount} {unit}',
      'zh-HK': '高於最高認購份額：最多 {amount} {unit}',
    },
  },
  FUND_LIMIT_EXCEEDED: {
    code: 162,
    httpStatus: 422,
    message: {
      'en-US': 'Exceeded Current Limit: you can subscribe at most {amount} {unit} more',
      'zh-HK': '超出當前限額：最多可再認購 {amount} {unit}',
    },
  },
  FUND_BELOW_MIN_REDEEM: {
    code: 163,
    httpStatus: 422,
    message: {
      'en-US': 'Below minimum redemption share: at least {amount} {unit}',
      'zh-HK': '低於最低贖回份額：最少 {amount} {unit}',
    },
  },
  FUND_ABOVE_MAX_REDEEM: {
    code: 164,
    httpStatus: 422,
    message: {
      'en-US': 'Above maximum withdrawable share: at most {amount} {unit}',
      'zh-HK': '高於最大可贖回份額：最多 {amount} {unit}',
    },
  },
  FUND_NOT_RAISING: {
    code: 165,
    httpStatus: 409,
    message: {
      'en-US': 'This fund is not open for subscription (raise window {from} to {to})',
      'zh-HK': '此基金不在募集期內（募集期 {from} 至 {to}）',
    },
  },
  FUND_ACTION_NOT_ALLOWED: {
    code: 166,
    httpStatus: 422,
    message: {
      'en-US': 'This fund does not accept {actionType} for this',
      'zh-HK': '此基金不接受以 {actionType} 進行此操作',
    },
  },
  FUND_NO_EARLY_REDEMPTION: {
    code: 167,
    httpStatus: 409,
    message: {
      'en-US': 'A fixed fund cannot be redeemed before maturity; it moves to the current fund on {maturityDate}',
      'zh-HK': '定期基金不可提前贖回，將於 {maturityDate} 自動轉入活期基金',
    },
  },
  FUND_COIN_OFF_PEG: {
    code: 168,
    httpStatus: 409,
    message: {
      'en-US': '{coin} is trading outside its 1:1 band with USD, so the fund cannot take or pay it right now',
      'zh-HK': '{coin} 目前偏離與美元 1:1 的區間，基金暫不接受或支付此幣種',
    },
  },
  FUND_BANK_ACCOUNT_NOT_FOUND: {
    code: 169,
    httpStatus: 422,
    message: {
      'en-US': 'Choose one of your bound bank accounts',
      'zh-HK': '請選擇你已綁定的銀行帳戶',
    },
  },
  WIRE_STATE_CHANGED: {
    code: 170,
    httpStatus: 409,
    message: { 'en-US': 'This wire has already been decided', 'zh-HK': '此電匯已有決定' },
  },
  WIRE_ORDER_MISMATCH: {
    code: 171,
    httpStatus: 422,
    message: {
      'en-US': 'This wire cannot pay {reference}: it must name a pending USD subscription of {amount} USD',
      'zh-HK': '此電匯不能用於支付 {reference}：須為金額 {amount} 美元、仍在處理中的美元認購訂單',
    },
  },
  BANK_ACCOUNT_LIMIT_REACHED: {
    code: 175,
    httpStatus: 409,
    message: {
      'en-US': 'You can bind at most {limit} bank accounts; remove one before adding another',
      'zh-HK': '最多只可綁定 {limit} 個銀行帳戶，請先移除一個再新增',
    },
  },
  SETTING_CHANGE_STALE: {
    code: 176,
    httpStatus: 409,
    message: {
      'en-US': 'This setting changed after the change was proposed (it is now {current}); reject it and propose again',
      'zh-HK': '此設定在變更提出後已被修改（現為 {current}），請駁回此變更後重新提出',
    },
  },
  TRUST_IRREVOCABLE: {
    code: 180,
    httpStatus: 409,
    message: {
      'en-US': 'This trust is irrevocable: its BTC cannot be withdrawn to your wallet',
      'zh-HK': '此信託不可撤銷：其 BTC 不能提回你的錢包',
    },
  },
  TRUST_NOT_ACTIVE: {
    code: 181,
    httpStatus: 409,
    message: {
      'en-US': 'This trust is no longer active: it cannot be funded or withdrawn from',
      'zh-HK': '此信託已不再生效：不能注資或提取',
    },
  },
  TRUST_STATE_CHANGED: {
    code: 182,
    httpStatus: 409,
    message: { 'en-US': 'This trust is not waiting for release', 'zh-HK': '此信託並非待發放狀態' },
  },
  TRUST_LIMIT_REACHED: {
    code: 183,
    httpStatus: 409,
    message: {
      'en-US': 'You can hold at most {max} trusts',
      'zh-HK': '你最多可持有 {max} 個信託',
    },
  },
  // Proof of liabilities: codes 240–249.
  LIABILITIES_NO_SNAPSHOT: {
    code: 240,
    httpStatus: 404,
    message: {
      'en-US': 'No proof-of-liabilities snapshot has been published for {date}',
      'zh-HK': '{date} 未有發佈負債證明快照',
    },
  },
  LIABILITIES_NOT_IN_SNAPSHOT: {
    code: 241,
    httpStatus: 404,
    message: {
      'en-US': 'Your account held no balance in the snapshot of {date}, so it has no proof',
      'zh-HK': '你的帳戶在 {date} 的快照中沒有結餘，因此沒有證明',
    },
  },
  LIABILITIES_PROOF_EXPIRED: {
    code: 242,
    httpStatus: 410,
    message: {
      'en-US':
        'Proofs are kept for {days} days: the proofs of {date} are no longer available (its root stays published)',
      'zh-HK': '證明只保留 {days} 日：{date} 的證明已不再提供（其根雜湊值仍然公開）',
    },
  },
  // Account statements: codes 250–254.
  STATEMENT_GENERATION_RUNNING: {
    code: 250,
    httpStatus: 409,
    message: {
      'en-US': 'A statement is already being generated for you: wait until it is ready, then start another',
      'zh-HK': '你已有一份結單正在生成：請待其完成後再開始另一份',
    },
  },
  STATEMENT_NOT_READY: {
    code: 251,
    httpStatus: 409,
    message: {
      'en-US': 'The statement is still being generated ({percent}%): download it when it is ready',
      'zh-HK': '結單仍在生成中（{percent}%）：完成後方可下載',
    },
  },
  STATEMENT_GENERATION_FAILED: {
    code: 252,
    httpStatus: 500,
    message: {
      'en-US': 'The statement could not be generated: please start it again',
      'zh-HK': '未能生成結單：請重新開始',
    },
  },
  // Passkeys: codes 260–269.
  PASSKEY_CHALLENGE_EXPIRED: {
    code: 260,
    httpStatus: 400,
    message: {
      'en-US': 'This passkey request has expired or was already used; please try again',
      'zh-HK': '此密碼匙請求已過期或已使用，請再試一次',
    },
  },
  PASSKEY_FAILED: {
    code: 261,
    httpStatus: 400,
    message: {
      'en-US': 'The passkey could not be verified',
      'zh-HK': '無法驗證密碼匙',
    },
  },
  PASSKEY_UNKNOWN: {
    code: 262,
    httpStatus: 400,
    message: {
      'en-US': 'This passkey is not registered with your account',
      'zh-HK': '此密碼匙未有登記於你的帳戶',
    },
  },
  PASSKEY_COUNTER_REGRESSED: {
    code: 263,
    httpStatus: 400,
    message: {
      'en-US': 'This passkey was refused: its use counter went backwards, which can mean it was copied',
      'zh-HK': '此密碼匙已被拒絕：其使用計數倒退，可能已被複製',
    },
  },
  PASSKEY_LIMIT_REACHED: {
    code: 264,
    httpStatus: 409,
    message: {
      'en-US': 'You can register at most {max} passkeys',
      'zh-HK': '你最多可登記 {max} 個密碼匙',
    },
  },
  PASSKEY_ALREADY_REGISTERED: {
    code: 265,
    httpStatus: 409,
    message: {
      'en-US': 'This passkey is already registered',
      'zh-HK': '此密碼匙已經登記',
    },
  },
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
} as const satisfies Record<string, { code: number; httpStatus: number; message: LocalizedText }>;

export type BusinessCodeName = keyof typeof BUSINESS_CODES;
export type BusinessCode = (typeof BUSINESS_CODES)[BusinessCodeName]['code'];

export { NOTIFICATION_CODES } from './client-codes.ts';

/** The localized message of a catalogue entry, with its placeholders filled. */
export function businessMessage(
  name: BusinessCodeName,
  locale: Locale,
  params?: Record<string, string | number>,
): string {
  return interpolate(BUSINESS_CODES[name].message[locale], params);
}
