import { type BusinessCodeEntry } from './common.ts';

/** The codes of the funds, the proof of liabilities, account statements and passkeys. Part of `BUSINESS_CODES` (`../codes.ts`). */
export const FUNDS_CODES = {
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
} as const satisfies Record<string, BusinessCodeEntry>;
