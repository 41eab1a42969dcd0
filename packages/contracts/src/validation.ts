import { interpolate, type Locale, type LocalizedText } from './locale.ts';

/**
 * Validation messages of the product's own rules, in both locales. A zod schema names
 * one by key (`z.string().min(8, { error: 'validation.passwordMin' })`) and the server's error
 * handler, like the web forms, turns the key into the user's language. Placeholders are `{name}`.
 */
export const VALIDATION_MESSAGES = {
  'validation.required': { 'en-US': 'This field is required', 'zh-HK': '此欄位為必填' },
  'validation.invalid': { 'en-US': 'This value is not valid', 'zh-HK': '此數值無效' },
  'validation.email': { 'en-US': 'Please enter a valid email address', 'zh-HK': '請輸入有效的電郵地址' },
  'validation.amount': { 'en-US': 'Enter a valid amount', 'zh-HK': '請輸入有效的金額' },
  'validation.amountPrecision': {
    'en-US': 'At most {decimals} decimal places are allowed',
    'zh-HK': '最多只可輸入 {decimals} 位小數',
  },
  'validation.amountPositive': { 'en-US': 'The amount must be greater than zero', 'zh-HK': '金額必須大於零' },
  'validation.amountNonZero': { 'en-US': 'The amount must not be zero', 'zh-HK': '金額不可為零' },
  'validation.postingsUnbalanced': {
    'en-US': 'The postings must sum to zero for each asset ({asset} sums to {sum})',
    'zh-HK': '每種資產的分錄總和必須為零（{asset} 的總和為 {sum}）',
  },
  'validation.cardLimitMax': {
    'en-US': 'At most {max} {currency}, the standard limit (higher limits are a request to customer service)',
    'zh-HK': '最多 {max} {currency}，即標準限額（更高限額須向客戶服務申請）',
  },
  'validation.minAboveMax': {
    'en-US': 'The minimum must not be above the maximum',
    'zh-HK': '最低值不可高於最高值',
  },
  'validation.passwordMin': { 'en-US': 'The password must be at least 8 characters', 'zh-HK': '密碼最少需要 8 個字元' },
  'validation.passwordMismatch': { 'en-US': 'The two passwords do not match', 'zh-HK': '兩次輸入的密碼不一致' },
  'validation.code6': { 'en-US': 'Enter the 6-digit code', 'zh-HK': '請輸入 6 位數字驗證碼' },
  'validation.addressLabel': {
    'en-US': 'The label must be 4 to 50 characters',
    'zh-HK': '標籤長度須為 4 至 50 個字元',
  },
  'validation.deviceId': {
    'en-US': 'The device id must look like pro-web-{uuid}',
    'zh-HK': '裝置編號格式須為 pro-web-{uuid}',
  },
  'validation.pushToken': { 'en-US': 'The push subscription is not valid', 'zh-HK': '推送訂閱無效' },
  'validation.unknownField': { 'en-US': 'This field is not allowed', 'zh-HK': '不允許此欄位' },
  'validation.withdrawAddressRequired': { 'en-US': 'Withdrawal address required', 'zh-HK': '請輸入提幣地址' },
  'validation.withdrawAddressInvalid': {
    'en-US': 'This is not a valid address on the {network} network',
    'zh-HK': '這不是 {network} 網絡的有效地址',
  },
  'validation.withdrawAddressOwn': {
    'en-US': 'You cannot withdraw to your own deposit address',
    'zh-HK': '不能提幣到自己的充值地址',
  },
  'validation.withdrawAddressNotWhitelisted': {
    'en-US': 'Withdrawals go only to address-book addresses at least 24 hours old',
    'zh-HK': '只可提幣到已加入地址簿滿 24 小時的地址',
  },
  'validation.addressSanctioned': {
    'en-US': 'This address is on a sanctions list and cannot be used',
    'zh-HK': '此地址列於制裁名單，無法使用',
  },
  'validation.withdrawAddressBlocked': {
    'en-US':
      'This address on the {network} network burns or loses funds (a burn or token contract address); use a wallet address',
    'zh-HK': '這個 {network} 網絡地址會令資金銷毀或遺失（銷毀地址或代幣合約地址），請使用錢包地址',
  },
  'validation.networkRequired': { 'en-US': 'Select a network', 'zh-HK': '請選擇網絡' },
  'validation.networkUnavailable': {
    'en-US': 'This network is not available for {coin}',
    'zh-HK': '{coin} 不支援此網絡',
  },
  'validation.withdrawMin': {
    'en-US': 'Minimum withdrawal not lower than {limit} {unit}',
    'zh-HK': '提幣金額最少為 {limit} {unit}',
  },
  'validation.withdrawMax': {
    'en-US': 'Single-transaction withdrawal maximum {limit} {unit}',
    'zh-HK': '單筆最高提幣金額 {limit} {unit}',
  },
  'validation.amountExceedsAvailable': { 'en-US': 'Do not exceed the available balance', 'zh-HK': '不可超過可用餘額' },
  'validation.addressBookDuplicate': {
    'en-US': 'This address is already in your address book',
    'zh-HK': '此地址已在地址簿中',
  },
  'validation.passwordCommon': {
    'en-US': 'This password is too common, please choose another',
    'zh-HK': '此密碼過於常見，請選擇其他密碼',
  },
  'validation.humanCheck': { 'en-US': 'Please complete the human check', 'zh-HK': '請完成人機驗證' },
  'validation.recoveryCode': {
    'en-US': 'Enter a recovery code like ABCDE-FGHIJ',
    'zh-HK': '請輸入恢復碼，格式如 ABCDE-FGHIJ',
  },
  'validation.mobile': { 'en-US': 'Enter a valid mobile number', 'zh-HK': '請輸入有效的手機號碼' },
  'validation.country': { 'en-US': 'Select a country or region', 'zh-HK': '請選擇國家或地區' },
  'validation.factorScope': { 'en-US': 'This factor cannot be used here', 'zh-HK': '此驗證方式不適用於此處' },
  'validation.bindingRequired': { 'en-US': 'At least one binding must remain', 'zh-HK': '至少須保留一項綁定' },
  'validation.totpInvalid': {
    'en-US': 'The authenticator code is wrong or already used; enter the current one',
    'zh-HK': '驗證器代碼錯誤或已使用，請輸入目前的代碼',
  },
  'validation.operatorExists': {
    'en-US': 'An operator with this email already exists',
    'zh-HK': '已有使用此電郵的操作員',
  },
  'validation.mfaNotBound': { 'en-US': 'Bind Google Authenticator first', 'zh-HK': '請先綁定 Google 驗證器' },
  'validation.securityPasswordNotSet': { 'en-US': 'Set a security code first', 'zh-HK': '請先設定安全碼' },
  'validation.emailCode': { 'en-US': 'Please enter the email verification code', 'zh-HK': '請輸入電郵驗證碼' },
  'validation.mfaCode': {
    'en-US': 'Please enter the 6-digit Google Authenticator code',
    'zh-HK': '請輸入 6 位 Google 驗證碼',
  },
  'validation.securityPassword': { 'en-US': 'Please enter secure password', 'zh-HK': '請輸入安全密碼' },
  'validation.smsCode': { 'en-US': 'Please enter the SMS verification code', 'zh-HK': '請輸入短訊驗證碼' },
  'validation.wrongPassword': { 'en-US': 'The password is incorrect', 'zh-HK': '密碼不正確' },
  'validation.sameCoin': { 'en-US': 'Please select another currency', 'zh-HK': '請選擇另一種幣種' },
  'validation.emailTaken': { 'en-US': 'This email address is already in use', 'zh-HK': '此電郵地址已被使用' },
  'validation.sameEmail': {
    'en-US': 'The new email must differ from the current one',
    'zh-HK': '新電郵地址不可與目前地址相同',
  },
  'validation.samePassword': {
    'en-US': 'The new password must differ from the current one',
    'zh-HK': '新密碼不可與目前密碼相同',
  },
  'validation.controlCharacter': {
    'en-US':
      'This field contains a control character (such as NUL or a text-direction control) or an invalid character',
    'zh-HK': '此欄位含有控制字元（如 NUL 或文字方向控制字元）或無效字元',
  },
  'validation.tooLong': {
    'en-US': 'This field is too long (at most {maximum} characters)',
    'zh-HK': '此欄位過長（最多 {maximum} 個字元）',
  },
  'validation.tooMany': {
    'en-US': 'This list is too long (at most {maximum} items)',
    'zh-HK': '此清單過長（最多 {maximum} 項）',
  },
  // Back-office banners.
  'validation.bannerLink': {
    'en-US': 'Enter a site path starting with / or an https:// address',
    'zh-HK': '請輸入以 / 開頭的站內路徑或 https:// 網址',
  },
  'validation.bannerImage': {
    'en-US': 'Choose one of the listed images or upload one',
    'zh-HK': '請從列出的圖片中選擇或上載圖片',
  },
  'validation.scheduleOrder': { 'en-US': 'The end must be after the start', 'zh-HK': '結束時間必須晚於開始時間' },
  'validation.bannerOrder': {
    'en-US': 'List every banner exactly once',
    'zh-HK': '請將每個橫幅列出一次且僅一次',
  },
  // Identity verification ("name in English characters; ID number valid; US residents must provide an SSN").
  'validation.idType': { 'en-US': 'Select an ID type', 'zh-HK': '請選擇證件類型' },
  'validation.nameEnglish': {
    'en-US': 'Enter the name in English characters, as on the document',
    'zh-HK': '請以英文字母輸入姓名，與證件相同',
  },
  'validation.hkid': {
    'en-US': 'Enter a valid HKID number, such as A123456(3)',
    'zh-HK': '請輸入有效的香港身份證號碼，例如 A123456(3)',
  },
  'validation.passportNumber': {
    'en-US': 'A passport number has 6 to 9 letters or digits',
    'zh-HK': '護照號碼須為 6 至 9 個英文字母或數字',
  },
  'validation.idNumber': { 'en-US': 'Enter a valid ID number', 'zh-HK': '請輸入有效的證件號碼' },
  'validation.dateOfBirth': { 'en-US': 'Enter a valid date of birth', 'zh-HK': '請輸入有效的出生日期' },
  'validation.age18': { 'en-US': 'You must be at least 18 years old', 'zh-HK': '你必須年滿 18 歲' },
  'validation.ssn': {
    'en-US': 'US residents must provide a valid SSN or ITIN (AAA-GG-SSSS)',
    'zh-HK': '美國居民必須提供有效的社會安全號碼或 ITIN（AAA-GG-SSSS）',
  },
  'validation.proofOfAddressDate': {
    'en-US': 'Enter the issue date of the proof of address',
    'zh-HK': '請輸入住址證明的發出日期',
  },
  'validation.proofOfAddressOld': {
    'en-US': 'The proof of address must be dated within the last {days} days',
    'zh-HK': '住址證明須為最近 {days} 日內發出',
  },
  'validation.documentRequired': { 'en-US': 'Please upload this document', 'zh-HK': '請上載此文件' },
  'validation.reviewStep': {
    'en-US': 'Choose basic, investor, aml, qualified or residence',
    'zh-HK': '請選擇 basic、investor、aml、qualified 或 residence',
  },
  'validation.annualRate': {
    'en-US': 'Enter a yearly rate from 0.00 to 50.00 %, with at most 2 decimals',
    'zh-HK': '請輸入 0.00 至 50.00 % 的年化利率，最多兩位小數',
  },
  'validation.loanApr': {
    'en-US': 'Enter an APR from 0.01 to 50.00 %, with at most 2 decimals',
    'zh-HK': '請輸入 0.01 至 50.00 % 的年化利率，最多兩位小數',
  },
  'validation.ltvPct': {
    'en-US': 'Enter a percentage from 0.01 to 99.99, with at most 2 decimals',
    'zh-HK': '請輸入 0.01 至 99.99 的百分比，最多兩位小數',
  },
  'validation.ltvOrder': {
    'en-US': 'The levels must rise: initial < margin call < liquidation < 100 %',
    'zh-HK': '各水平須遞增：初始 < 追加保證金 < 平倉 < 100 %',
  },
  'validation.hardLtvOrder': {
    'en-US': 'The hard liquidation level must be at least the liquidation LTV and below 100 %',
    'zh-HK': '即時平倉水平須不低於平倉貸款價值比率，並低於 100 %',
  },
  'validation.cureWindow': {
    'en-US': 'Enter whole minutes from 0 to 10,080 (7 days)',
    'zh-HK': '請輸入 0 至 10,080（7 日）的整數分鐘',
  },
  'validation.liquidationFee': {
    'en-US': 'Enter a fee from 0.00 to 20.00 %, with at most 2 decimals, that with the initial LTV stays below 100 %',
    'zh-HK': '請輸入 0.00 至 20.00 % 的費率（最多兩位小數），與初始貸款價值比率相加須低於 100 %',
  },
  'validation.cardFee': {
    'en-US': 'Enter a fee from 0 to 1,000 USDT, with at most 6 decimals',
    'zh-HK': '請輸入 0 至 1,000 USDT 的手續費，最多六位小數',
  },
  'validation.cardRate': {
    'en-US': 'Enter a rate above 0 and at most 1,000,000 units per USD, with at most 8 decimals',
    'zh-HK': '請輸入大於 0 及不超過 1,000,000 的每美元匯率，最多八位小數',
  },
  'validation.cardsMax': {
    'en-US': 'Enter a whole number of cards from 0 to 20',
    'zh-HK': '請輸入 0 至 20 的整數卡片數目',
  },
  'validation.cardCurrencies': {
    'en-US': 'Choose at least one currency, each once',
    'zh-HK': '請選擇最少一種貨幣，每種只選一次',
  },
  'validation.cardTopUpBound': {
    'en-US': 'Enter an amount above 0, with at most 6 decimals',
    'zh-HK': '請輸入大於 0 的金額，最多六位小數',
  },
  'validation.cardLimitOrder': {
    'en-US': 'Limits must not fall: per transaction ≤ daily ≤ monthly',
    'zh-HK': '限額不可遞減：每筆 ≤ 每日 ≤ 每月',
  },
  'validation.promotionOrder': {
    'en-US': 'The promotion must start before it ends',
    'zh-HK': '推廣期的開始時間須早於結束時間',
  },
  'validation.dateTime': {
    'en-US': 'Enter a date and time with its time zone',
    'zh-HK': '請輸入附時區的日期及時間',
  },
  'validation.rateTiers': {
    'en-US': 'Each tier must reach above the one before, and only the last tier has no upper limit',
    'zh-HK': '每一級的上限須高於前一級，只有最後一級沒有上限',
  },
  'validation.raiseWindow': {
    'en-US': 'The raise window must start today or later and end before interest starts',
    'zh-HK': '募集期須由今日或之後開始，並於起息日前結束',
  },
  'validation.date': { 'en-US': 'Enter a date as YYYY-MM-DD', 'zh-HK': '請以 YYYY-MM-DD 格式輸入日期' },
  'validation.calendarRangeOrder': {
    'en-US': 'The end date must not be before the start date',
    'zh-HK': '結束日期不可早於開始日期',
  },
  'validation.calendarRangeTooLong': {
    'en-US': 'A calendar range may span at most 400 days',
    'zh-HK': '日曆範圍最多為 400 日',
  },
  'validation.priceRange': {
    'en-US': 'Choose a range: 24h, 7d, 30d or 1y',
    'zh-HK': '請選擇範圍：24h、7d、30d 或 1y',
  },
  'validation.calendarFeedFile': {
    'en-US': 'Unknown calendar address',
    'zh-HK': '日曆地址無效',
  },
  'validation.termsNoticeTooShort': {
    'en-US': 'Changes must be announced {days} working days ahead: the earliest effective date is {date}',
    'zh-HK': '條款變更須提前 {days} 個工作日通知：最早生效日期為 {date}',
  },
  'validation.residenceUnchanged': {
    'en-US': 'This is the residence and address already on file',
    'zh-HK': '此居住地及地址與記錄相同',
  },
  'validation.documentKind': {
    'en-US': '{file}: unknown document kind (idFront, idBack, selfie or proofOfAddress)',
    'zh-HK': '{file}：未知的文件類別（idFront、idBack、selfie 或 proofOfAddress）',
  },
  'validation.sharePercent': {
    'en-US': 'Each beneficial owner holds 25 % to 100 % (at most 2 decimals)',
    'zh-HK': '每名實益擁有人須持有 25% 至 100%（最多 2 位小數）',
  },
  'validation.sharesTotal': { 'en-US': 'The shares add up to more than 100 %', 'zh-HK': '持股比例合計超過 100%' },
  'validation.investorType': { 'en-US': 'Choose individual or company', 'zh-HK': '請選擇個人或公司' },
  'validation.taxForm': { 'en-US': 'Choose the W-9 or the W-8BEN form', 'zh-HK': '請選擇 W-9 或 W-8BEN 表格' },
  'validation.usPersonW9': {
    'en-US': 'US persons must file a W-9 with their SSN or ITIN',
    'zh-HK': '美國人士須以社會安全號碼或 ITIN 填寫 W-9 表格',
  },
  'validation.tinOrReason': {
    'en-US': 'Enter the tax identification number, or choose why there is none',
    'zh-HK': '請輸入稅務編號，或選擇沒有稅務編號的原因',
  },
  'validation.noTinReason': { 'en-US': 'Choose reason A, B or C', 'zh-HK': '請選擇原因 A、B 或 C' },
  'validation.qualifiedThreshold': {
    'en-US': 'The professional-investor test needs at least {minimum}',
    'zh-HK': '專業投資者測試須至少 {minimum}',
  },
  'validation.declaration': { 'en-US': 'Please confirm the declaration', 'zh-HK': '請確認聲明' },
  // Uploads (texts "File size exceeded", "File name exceeded", "File format not supported yet"; limits).
  'validation.fileSizeExceeded': {
    'en-US': '{file}: File size exceeded (at most {maximumMb} MB)',
    'zh-HK': '{file}：檔案大小超出上限（最多 {maximumMb} MB）',
  },
  'validation.fileNameExceeded': {
    'en-US': '{file}: File name exceeded (at most {maximum} characters)',
    'zh-HK': '{file}：檔案名稱過長（最多 {maximum} 個字元）',
  },
  'validation.fileFormat': {
    'en-US': '{file}: File format not supported yet (JPG, PNG or PDF)',
    'zh-HK': '{file}：暫不支援此檔案格式（JPG、PNG 或 PDF）',
  },
  'validation.imageFormat': {
    'en-US': '{file}: File format not supported yet (PNG, JPEG or WebP)',
    'zh-HK': '{file}：暫不支援此檔案格式（PNG、JPEG 或 WebP）',
  },
  'validation.fileCount': {
    'en-US': 'At most {maximum} files per submission',
    'zh-HK': '每次最多上載 {maximum} 個檔案',
  },
  'validation.fileRequired': { 'en-US': 'Please upload a file', 'zh-HK': '請上載檔案' },
  // Bank accounts (contracts/payments.ts).
  'validation.accountHolder': {
    'en-US': 'Enter the account holder’s name (at least 2 characters)',
    'zh-HK': '請輸入帳戶持有人姓名（最少 2 個字元）',
  },
  'validation.accountHolderName': {
    'en-US': 'The account holder must be you: enter the name you verified, {name}',
    'zh-HK': '帳戶持有人須為你本人：請輸入已認證的姓名 {name}',
  },
  'validation.accountHolderUnverified': {
    'en-US': 'Your verified name was not found; complete identity verification first',
    'zh-HK': '找不到你的已認證姓名，請先完成身份認證',
  },
  'validation.bankName': {
    'en-US': 'Enter the bank’s name (at least 2 characters)',
    'zh-HK': '請輸入銀行名稱（最少 2 個字元）',
  },
  'validation.swiftBic': {
    'en-US': 'Enter a valid SWIFT/BIC code of 8 or 11 characters',
    'zh-HK': '請輸入有效的 8 位或 11 位 SWIFT/BIC 代碼',
  },
  'validation.swiftBicCountry': {
    'en-US': 'The SWIFT/BIC code’s country (5th and 6th characters) must be the bank’s country',
    'zh-HK': 'SWIFT/BIC 代碼的國家（第 5 及第 6 個字元）須與銀行所在國家相同',
  },
  'validation.iban': { 'en-US': 'Enter a valid IBAN (check the digits)', 'zh-HK': '請輸入有效的 IBAN（請核對號碼）' },
  'validation.ibanRequired': {
    'en-US': 'Banks in this country use an IBAN: please enter it',
    'zh-HK': '此國家的銀行使用 IBAN，請輸入',
  },
  'validation.ibanCountry': {
    'en-US': 'The IBAN must start with the bank’s country code',
    'zh-HK': 'IBAN 須以銀行所在國家的代碼開頭',
  },
  'validation.ibanNotUsed': {
    'en-US': 'Banks in this country do not use an IBAN: enter the account number',
    'zh-HK': '此國家的銀行不使用 IBAN，請輸入帳戶號碼',
  },
  'validation.accountNumber': {
    'en-US': 'Enter an account number of 4 to 34 letters or digits',
    'zh-HK': '請輸入 4 至 34 位字母或數字的帳戶號碼',
  },
  'validation.accountNumberRequired': { 'en-US': 'Enter the account number', 'zh-HK': '請輸入帳戶號碼' },
  'validation.bankCurrency': { 'en-US': 'Only USD accounts can be added', 'zh-HK': '只可新增美元（USD）帳戶' },
  'validation.bankAccountDuplicate': {
    'en-US': 'This account is already bound',
    'zh-HK': '此帳戶已綁定',
  },
  // BTC trust.
  'validation.trustShare': {
    'en-US': 'Enter a share between 0.01 and 100 with at most 2 decimals',
    'zh-HK': '請輸入 0.01 至 100 之間的比例，最多 2 位小數',
  },
  'validation.trustSharesSum': {
    'en-US': 'The beneficiaries’ shares must add up to exactly 100% (now {sum}%)',
    'zh-HK': '受益人比例總和必須剛好為 100%（目前為 {sum}%）',
  },
  'validation.trustTerm': {
    'en-US': 'Enter a term of 1 to 1200 months, or choose open-ended',
    'zh-HK': '請輸入 1 至 1200 個月的期限，或選擇不設期限',
  },
  'validation.trustInactivity': {
    'en-US': 'Choose an inactivity period of 6 to 36 months',
    'zh-HK': '請選擇 6 至 36 個月的不活動期',
  },
  'validation.trustBeneficiaries': {
    'en-US': 'Name 1 to 10 beneficiaries',
    'zh-HK': '請填寫 1 至 10 位受益人',
  },
  'validation.loanCoin': {
    'en-US': 'Choose a coin to borrow: USDT, USDC or USDE',
    'zh-HK': '請選擇借入的幣種：USDT、USDC 或 USDE',
  },
  'validation.loanTerm': {
    'en-US': 'Choose a term of 30, 90, 180 or 360 days',
    'zh-HK': '請選擇 30、90、180 或 360 日的期限',
  },
  'validation.loanProtectionPct': {
    'en-US': 'The trigger LTV must be 75–88% and the target LTV 10–70%, below the trigger',
    'zh-HK': '觸發貸款價值比率須為 75–88%，目標貸款價值比率須為 10–70% 並低於觸發值',
  },
  // Cards.
  'validation.cardMcc': { 'en-US': 'A merchant category code has 4 digits', 'zh-HK': '商戶類別代碼須為 4 位數字' },
  'validation.cardPin': { 'en-US': 'The PIN must be 4 digits', 'zh-HK': '密碼須為 4 位數字' },
  'validation.cardNumber': {
    'en-US': 'Enter the card number (13 to 19 digits)',
    'zh-HK': '請輸入卡號（13 至 19 位數字）',
  },
  'validation.cardholderName': {
    'en-US': 'Use Latin letters, spaces, dots, apostrophes or hyphens',
    'zh-HK': '請使用英文字母、空格、句點、撇號或連字號',
  },
  'validation.apiKeyLabel': {
    'en-US': 'The name must be 1 to 40 characters',
    'zh-HK': '名稱須為 1 至 40 個字元',
  },
  'validation.apiKeyScopes': {
    'en-US': 'Choose at least one permission (read, trade, withdraw), each once',
    'zh-HK': '請選擇最少一項權限（讀取、交易、提幣），每項一次',
  },
  'validation.ipAddress': {
    'en-US': 'Enter IPv4 or IPv6 addresses or CIDR ranges, at most 10',
    'zh-HK': '請輸入 IPv4 或 IPv6 地址或 CIDR 範圍，最多 10 個',
  },
  'validation.apiKeyAddressBookOnly': {
    'en-US': 'With an API key, withdrawals go only to addresses in your address book',
    'zh-HK': '使用 API 金鑰時，只可提幣到地址簿內的地址',
  },
  'validation.freezeToken': { 'en-US': 'This link is not complete', 'zh-HK': '此連結不完整' },
  // Account statements.
  'validation.statementRangeOrder': {
    'en-US': 'The end date must not be before the start date',
    'zh-HK': '結束日期不可早於開始日期',
  },
  'validation.statementRangeTooLong': {
    'en-US': 'A statement covers at most 366 days',
    'zh-HK': '結單最多涵蓋 366 日',
  },
  'validation.statementRangeFuture': {
    'en-US': 'The start date must not be in the future',
    'zh-HK': '開始日期不可為未來日期',
  },
  'validation.statementRangeEndFuture': {
    'en-US': 'The end date must not be after the end of this month',
    'zh-HK': '結束日期不可遲於本月最後一日',
  },
  'validation.statementRangeTooEarly': {
    'en-US': 'Statements start no earlier than 3 January 2009',
    'zh-HK': '結單日期不可早於 2009 年 1 月 3 日',
  },
  'validation.passkey': {
    'en-US': 'The passkey answer is malformed; try again',
    'zh-HK': '密碼匙的回應格式不正確，請再試一次',
  },
  'validation.passkeyName': {
    'en-US': 'Name the passkey (1 to 40 characters)',
    'zh-HK': '請為密碼匙命名（1 至 40 個字元）',
  },
} as const satisfies Record<string, LocalizedText>;

export type ValidationMessageKey = keyof typeof VALIDATION_MESSAGES;

export function isValidationMessageKey(value: string): value is ValidationMessageKey {
  return Object.hasOwn(VALIDATION_MESSAGES, value);
}

/** Translate a validation key; a text that is not a key is returned unchanged. */
export function validationMessage(keyOrText: string, locale: Locale, params?: Record<string, string | number>): string {
  return isValidationMessageKey(keyOrText) ? interpolate(VALIDATION_MESSAGES[keyOrText][locale], params) : keyOrText;
}
