import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Locale } from '@meridian/contracts/locale';
import { formatMoneyOf } from '@meridian/contracts/money-format';
import type { Statement, StatementLoan, StatementLoanMovement, StatementSection } from '@meridian/contracts/statements';
import PDFDocument from 'pdfkit';

/**
 * The statement's font: Noto Sans HK (SIL Open Font License 1.1), from the npm package
 * `@expo-google-fonts/noto-sans-hk` (the Google Fonts files; its LICENSE_FONT). It covers Latin and
 * Hong Kong Traditional Chinese; pdfkit embeds only the glyphs a document uses (a subset), so a
 * statement stays small. Resolved from the package, never from a system font path.
 */
function fontPaths(): { regular: string; bold: string } {
  const require = createRequire(import.meta.url);
  const root = dirname(require.resolve('@expo-google-fonts/noto-sans-hk/package.json'));
  return {
    regular: join(root, '400Regular', 'NotoSansHK_400Regular.ttf'),
    bold: join(root, '700Bold', 'NotoSansHK_700Bold.ttf'),
  };
}

type Texts = {
  title: string;
  period: string;
  generated: string;
  totalUsd: string;
  opening: string;
  closing: string;
  noMovements: string;
  columns: [string, string, string, string, string, string, string];
  sections: Record<StatementSection, string>;
  types: Record<string, string>;
  kinds: Record<string, string>;
  page: string;
  footer: string;
  /** The label–value separator (a full-width colon in Chinese). */
  colon: string;
  /** Between the parts of an account's heading. */
  separator: string;
  /** The note naming the assets left out of the total for want of a price (`{assets}`, `{day}`). */
  unvalued: string;
  noPrice: string;
  loans: LoanTexts;
};

type LoanTexts = {
  title: string;
  principal: string;
  interestOwed: string;
  totals: string;
  columns: [string, string, string, string, string, string];
  kinds: Record<StatementLoanMovement['kind'], string>;
};

const TEXTS: Record<Locale, Texts> = {
  'en-US': {
    title: 'Meridian account statement',
    period: 'Period (UTC)',
    generated: 'Generated',
    totalUsd: "Total closing value (USD, at the last day's close)",
    opening: 'Opening balance',
    closing: 'Closing balance',
    noMovements: 'No movements in this period',
    columns: ['Date (UTC)', 'Type', 'Reference', 'Amount', 'Fee', 'Balance', 'USD value'],
    sections: { main: 'Main account', fund: 'Funds', loan: 'Loans', card: 'Cards', trust: 'Trusts' },
    types: {
      USER_AVAILABLE: 'Available',
      USER_FROZEN: 'Frozen',
      USER_FUND: 'Current fund',
      USER_FUND_FIXED: 'Fixed fund principal',
      USER_FUND_FROZEN: 'Fund shares held for a wire',
      USER_LOAN_COLLATERAL: 'Loan collateral',
      USER_CARD: 'Card',
      CARD_AVAILABLE: 'Card balance',
      CARD_HELD: 'Card holds',
      TRUST_HOLDING: 'Trust holding',
    },
    kinds: {
      DEPOSIT: 'Deposit',
      WITHDRAWAL_FREEZE: 'Withdrawal requested',
      WITHDRAWAL_RETURN: 'Withdrawal returned',
      WITHDRAWAL_SETTLE: 'Withdrawal sent',
      INTERNAL_TRANSFER: 'Internal transfer',
      EXCHANGE_SWAP: 'Swap',
      FUND_SUBSCRIBE: 'Fund subscription',
      FUND_REDEEM: 'Fund redemption',
      FUND_INTEREST: 'Fund interest',
      FUND_MATURITY: 'Fixed fund maturity',
      FUND_WIRE_IN: 'Wire received',
      FUND_WIRE_OUT: 'Wire sent',
      TRUST_ENTRUST: 'Entrusted',
      TRUST_WITHDRAW: 'Trust withdrawal',
      TRUST_RELEASE: 'Trust released',
      LOAN_BORROW: 'Loan borrowed',
      LOAN_REPAY: 'Loan repaid',
      LOAN_COLLATERAL: 'Collateral change',
      LOAN_LIQUIDATION: 'Liquidation',
      CARD_FEE: 'Card fee',
      CARD_TOPUP: 'Card top-up',
      CARD_HOLD: 'Card authorisation',
      CARD_CLEARING: 'Card purchase',
      CARD_RELEASE: 'Authorisation released',
      CARD_REFUND: 'Card refund',
      ADJUSTMENT: 'Adjustment',
      REVERSAL: 'Reversal',
      DEMO_FUNDING: 'Demo funds',
    },
    page: 'Page',
    footer: "Balances come from the Meridian ledger. USD values use each day's closing price.",
    colon: ': ',
    separator: ' | ',
    unvalued: 'No USD price exists for {assets} on {day}: left out of the total.',
    noPrice: 'no price',
    loans: {
      title: 'Loan',
      principal: 'Principal outstanding',
      interestOwed: 'Interest owed',
      totals: 'In this period: interest charged {charged}, interest paid {paid}, fees paid {fees}',
      columns: ['Date (UTC)', 'Movement', 'Principal', 'Interest charged', 'Interest paid', 'Fee paid'],
      kinds: { borrow: 'Borrowed', repay: 'Repaid', liquidation: 'Liquidation' },
    },
  },
  'zh-HK': {
    title: 'Meridian 帳戶結單',
    period: '期間（UTC）',
    generated: '生成時間',
    totalUsd: '期末總值（美元，按最後一日收市價）',
    opening: '期初結餘',
    closing: '期末結餘',
    noMovements: '此期間沒有交易',
    columns: ['日期（UTC）', '類型', '參考編號', '金額', '手續費', '結餘', '美元價值'],
    sections: { main: '主帳戶', fund: '理財', loan: '借貸', card: '卡', trust: '信託' },
    types: {
      USER_AVAILABLE: '可用',
      USER_FROZEN: '凍結',
      USER_FUND: '活期理財',
      USER_FUND_FIXED: '定期理財本金',
      USER_FUND_FROZEN: '電匯待付理財份額',
      USER_LOAN_COLLATERAL: '借貸抵押品',
      USER_CARD: '卡',
      CARD_AVAILABLE: '卡結餘',
      CARD_HELD: '卡預授權',
      TRUST_HOLDING: '信託持有',
    },
    kinds: {
      DEPOSIT: '充值',
      WITHDRAWAL_FREEZE: '提幣申請',
      WITHDRAWAL_RETURN: '提幣退回',
      WITHDRAWAL_SETTLE: '提幣已發送',
      INTERNAL_TRANSFER: '內部轉帳',
      EXCHANGE_SWAP: '兌換',
      FUND_SUBSCRIBE: '理財認購',
      FUND_REDEEM: '理財贖回',
      FUND_INTEREST: '理財利息',
      FUND_MATURITY: '定期理財到期',
      FUND_WIRE_IN: '收到電匯',
      FUND_WIRE_OUT: '發出電匯',
      TRUST_ENTRUST: '存入信託',
      TRUST_WITHDRAW: '信託提取',
      TRUST_RELEASE: '信託釋放',
      LOAN_BORROW: '借款',
      LOAN_REPAY: '還款',
      LOAN_COLLATERAL: '抵押品變動',
      LOAN_LIQUIDATION: '平倉',
      CARD_FEE: '卡費用',
      CARD_TOPUP: '卡充值',
      CARD_HOLD: '卡預授權',
      CARD_CLEARING: '卡消費',
      CARD_RELEASE: '預授權解除',
      CARD_REFUND: '卡退款',
      ADJUSTMENT: '調整',
      REVERSAL: '沖正',
      DEMO_FUNDING: '示範資金',
    },
    page: '頁',
    footer: '結餘取自 Meridian 分類帳。美元價值按每日收市價計算。',
    colon: '：',
    separator: '｜',
    unvalued: '{assets} 於 {day} 沒有美元價格，未計入總值。',
    noPrice: '沒有價格',
    loans: {
      title: '借款',
      principal: '未還本金',
      interestOwed: '應付利息',
      totals: '此期間：計入利息 {charged}，已付利息 {paid}，已付手續費 {fees}',
      columns: ['日期（UTC）', '變動', '本金', '計入利息', '已付利息', '已付手續費'],
      kinds: { borrow: '借入', repay: '還款', liquidation: '平倉' },
    },
  },
};

/**
 * A signed amount of `asset` for a table cell, by the one money formatter ("-1,234.50"; the column
 * names the asset). Separators and decimals are the same in en-US and zh-HK.
 */
function displayAmount(amount: string, asset: string): string {
  return formatMoneyOf(amount, asset, { unit: 'none' });
}

/** A signed amount of `asset` in running text, followed by its code ("1,234.50 USDT", "0.10000000 BTC"). */
function displayWithCode(amount: string, asset: string): string {
  return formatMoneyOf(amount, asset, { unit: 'code' });
}

/** Column widths (points) of the movements table on A4 landscape (842 − 2 × 36 = 770). */
const WIDTHS = [110, 130, 170, 100, 70, 100, 90] as const;
const MARGIN = 36;

/** Column widths of a loan's movements table (points, 770 in all). */
const LOAN_WIDTHS = [130, 140, 125, 125, 125, 125] as const;

/**
 * One loan's block: its heading, the opening principal outstanding and interest owed, its movements
 * (date, kind, principal change, interest charged, interest paid, fee paid), the closing and the
 * period's totals (docs/statements.md "Loans").
 */
function loanBlock(
  doc: PDFKit.PDFDocument,
  loan: StatementLoan,
  t: Texts,
  row: (cells: readonly string[], font: 'body' | 'bold') => void,
): void {
  const l = t.loans;
  const coin = (amount: string) => displayWithCode(amount, loan.coin);
  const balances = (principal: string, owed: string) =>
    `${l.principal}${t.colon}${coin(principal)}${t.separator}${l.interestOwed}${t.colon}${coin(owed)}`;
  doc.font('bold').fontSize(11).text([t.sections.loan, l.title, loan.reference, loan.coin].join(t.separator), MARGIN);
  doc.moveDown(0.2);
  doc
    .font('body')
    .fontSize(9)
    .text(`${t.opening}${t.colon}${balances(loan.principalOpening, loan.interestOwedOpening)}`);
  doc.moveDown(0.3);
  if (loan.movements.length === 0) doc.font('body').fontSize(8).text(t.noMovements);
  else {
    row(l.columns, 'bold');
    for (const m of loan.movements)
      row(
        [
          m.at.slice(0, 19).replace('T', ' '),
          l.kinds[m.kind],
          displayAmount(m.principal, loan.coin),
          displayAmount(m.interestCharged, loan.coin),
          displayAmount(m.interestPaid, loan.coin),
          displayAmount(m.feePaid, loan.coin),
        ],
        'body',
      );
  }
  doc.moveDown(0.2);
  doc
    .font('bold')
    .fontSize(9)
    .text(`${t.closing}${t.colon}${balances(loan.principalClosing, loan.interestOwedClosing)}`, MARGIN);
  doc
    .font('body')
    .fontSize(8)
    .text(
      l.totals
        .replace('{charged}', coin(loan.interestCharged))
        .replace('{paid}', coin(loan.interestPaid))
        .replace('{fees}', coin(loan.feesPaid)),
      MARGIN,
    );
  doc.moveDown(1);
}

/** The statement's heading: title, period, generation time, total and the assets without a price. */
function heading(doc: PDFKit.PDFDocument, statement: Statement, t: Texts): void {
  doc.font('bold').fontSize(18).text(t.title);
  doc.moveDown(0.3);
  doc.font('body').fontSize(10);
  doc.text(`${t.period}${t.colon}${statement.from} – ${statement.to}`);
  doc.text(`${t.generated}${t.colon}${statement.generatedAt.slice(0, 19).replace('T', ' ')} UTC`);
  doc.text(`${t.totalUsd}${t.colon}${displayWithCode(statement.closingUsdTotal, 'USD')}`);
  if (statement.unvaluedAssets.length > 0)
    doc.text(t.unvalued.replace('{assets}', statement.unvaluedAssets.join(', ')).replace('{day}', statement.to));
  doc.moveDown(0.8);
}

/** The footer note and "Page n / N" on every buffered page. */
function pageFooters(doc: PDFKit.PDFDocument, t: Texts, locale: Locale): void {
  const range = doc.bufferedPageRange();
  for (let index = range.start; index < range.start + range.count; index += 1) {
    doc.switchToPage(index);
    // Writing in the bottom margin would otherwise start a new page.
    doc.page.margins.bottom = 0;
    doc.font('body').fontSize(7).fillColor('#666666');
    const y = doc.page.height - MARGIN - 10;
    doc.text(t.footer, MARGIN, y, { lineBreak: false });
    const label =
      locale === 'zh-HK' ? `第 ${index + 1} / ${range.count} ${t.page}` : `${t.page} ${index + 1} / ${range.count}`;
    doc.text(label, doc.page.width - MARGIN - 100, y, { width: 100, align: 'right', lineBreak: false });
    doc.fillColor('#000000');
  }
}

/** The statement's entry-kind label in `locale` (the raw kind when it has none). */
export function statementKindLabel(kind: string, locale: Locale): string {
  return TEXTS[locale].kinds[kind] ?? kind;
}

/**
 * Render the statement as a PDF (A4 landscape, Noto Sans HK embedded as a subset): a heading with
 * the period and the total closing value, then per account its opening balance, its movements (date,
 * type, reference, amount, fee, balance after, USD value at the day's close) and its closing
 * balance, with page numbers.
 */
export async function statementPdf(statement: Statement, locale: Locale): Promise<Buffer> {
  const t = TEXTS[locale];
  const fonts = fontPaths();
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: MARGIN,
    bufferPages: true,
    info: { Title: `${t.title} ${statement.from} – ${statement.to}`, Author: 'Meridian' },
  });
  doc.registerFont('body', fonts.regular);
  doc.registerFont('bold', fonts.bold);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const bottom = () => doc.page.height - MARGIN - 24;

  heading(doc, statement, t);

  const row = (cells: readonly string[], font: 'body' | 'bold', size = 8, widths: readonly number[] = WIDTHS) => {
    doc.font(font).fontSize(size);
    const heights = cells.map((cell, index) => doc.heightOfString(cell, { width: widths[index]! - 6 }));
    const height = Math.max(...heights, size + 4);
    if (doc.y + height > bottom()) doc.addPage();
    const y = doc.y;
    let x = MARGIN;
    cells.forEach((cell, index) => {
      const width = widths[index]! - 6;
      doc.text(cell, x, y, { width, align: index >= widths.length - 4 ? 'right' : 'left', lineBreak: true });
      x += widths[index]!;
    });
    doc.x = MARGIN;
    doc.y = y + height + 3;
  };

  for (const account of statement.accounts) {
    if (doc.y + 80 > bottom()) doc.addPage();
    const owner = account.ownerRef ? `${t.separator}${account.ownerRef}` : '';
    doc
      .font('bold')
      .fontSize(11)
      .text(
        [t.sections[account.section], t.types[account.type] ?? account.type, account.asset].join(t.separator) + owner,
        MARGIN,
      );
    doc.moveDown(0.2);
    doc
      .font('body')
      .fontSize(9)
      .text(`${t.opening}${t.colon}${displayWithCode(account.opening, account.asset)}`);
    doc.moveDown(0.3);
    if (account.movements.length === 0) doc.font('body').fontSize(8).text(t.noMovements);
    else {
      row(t.columns, 'bold');
      doc
        .moveTo(MARGIN, doc.y - 1)
        .lineTo(doc.page.width - MARGIN, doc.y - 1)
        .lineWidth(0.5)
        .strokeColor('#999999')
        .stroke();
      for (const m of account.movements)
        row(
          [
            m.at.slice(0, 19).replace('T', ' '),
            statementKindLabel(m.kind, locale),
            m.reference,
            displayAmount(m.amount, account.asset),
            /^0(\.0*)?$/.test(m.fee) ? '' : displayAmount(m.fee, account.asset),
            displayAmount(m.balanceAfter, account.asset),
            m.amountUsd === null ? '—' : displayAmount(m.amountUsd, 'USD'),
          ],
          'body',
        );
    }
    doc.moveDown(0.2);
    const usd = ` (${account.closingUsd === null ? t.noPrice : displayWithCode(account.closingUsd, 'USD')})`;
    doc
      .font('bold')
      .fontSize(9)
      .text(`${t.closing}${t.colon}${displayWithCode(account.closing, account.asset)}${usd}`, MARGIN);
    doc.moveDown(1);
  }

  for (const loan of statement.loans) {
    if (doc.y + 80 > bottom()) doc.addPage();
    loanBlock(doc, loan, t, (cells, font) => row(cells, font, 8, LOAN_WIDTHS));
  }

  pageFooters(doc, t, locale);
  doc.end();
  return done;
}
