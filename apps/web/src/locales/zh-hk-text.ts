import { Converter } from 'opencc-js/cn2t';

/**
 * Checks that a Traditional Chinese (Hong Kong) text is written as docs/zh-hk-glossary.md asks:
 * no Simplified-only characters and no untranslated English outside brand names and codes.
 * Used by the unit test of every zh-HK text (locales.test.ts) and by the rendered-page check of
 * e2e/a11y.spec.ts. Node only (OpenCC's dictionaries are large): never imported by the app.
 */

/**
 * OpenCC's Simplified (mainland) → Traditional converters for Hong Kong and for Taiwan, phrase-aware.
 * A character that both change is one no Traditional text writes (为 → 為, 帐 → 帳, 现 → 現); a
 * character only one of them changes is a regional variant choice that Hong Kong text may make
 * (Hong Kong's table turns 戶 into 户; Taiwan's turns 台 into 臺 and 着 into 著), so it is not flagged.
 */
const toHongKong = Converter({ from: 'cn', to: 'hk' });
const toTaiwan = Converter({ from: 'cn', to: 'tw' });

/**
 * Characters both converters change although Hong Kong text writes them as they are. Keep short;
 * each one is a reviewed exception.
 */
const TRADITIONAL_ALLOWLIST = new Set<string>([
  // 了解 (to understand): Hong Kong writes 了解; OpenCC's phrase table prefers the older 瞭解.
  '了',
  // 只 (only): 最多只可 is read by both tables as 多隻 (many animals); Hong Kong writes 只可.
  '只',
]);

/**
 * Brand names, coin and network symbols, and codes that a Hong Kong finance text keeps in Latin
 * letters. Compared case-sensitively as whole words.
 */
export const ENGLISH_ALLOWLIST = new Set<string>([
  'Meridian',
  'USDT',
  'USDC',
  'USDE',
  'BTC',
  'ETH',
  'TRX',
  'BNB',
  'SOL',
  'USD',
  'HKD',
  'CNY',
  'EUR',
  'GBP',
  'SGD',
  'JPY',
  'Visa',
  'Mastercard',
  'KYC',
  'AML',
  'TOTP',
  'PIN',
  'APR',
  'APY',
  'LTV',
  'API',
  'SMS',
  'Google',
  'Authenticator',
  'Microsoft',
  'Apple',
  'Pay',
  'Android',
  'Windows',
  'macOS',
  'Linux',
  'Edge',
  'iOS',
  'iPhone',
  'iPad',
  'Outlook',
  // Technical names with no Chinese form in use: IP ranges, the proof-of-liabilities tree.
  'CIDR',
  'Merkle',
  'Safari',
  'Chrome',
  'Firefox',
  'App',
  'Store',
  'Play',
  'PWA',
  'QR',
  'PDF',
  'CSV',
  'ICS',
  'URL',
  'ID',
  'HKID',
  'IBAN',
  'SWIFT',
  'BIC',
  'FPS',
  'CVV',
  'CVC',
  'OTP',
  'FATCA',
  'CRS',
  'W',
  'BEN',
  'TIN',
  'UTC',
  'GMT',
  'HKT',
  'IP',
  'Tron',
  'Ethereum',
  'Bitcoin',
  'Binance',
  'Coinbase',
  'Chainlink',
  'Koinly',
  'CoinTracker',
  'Telegram',
  'Twitter',
  'X',
  'Facebook',
  'LinkedIn',
  'YouTube',
  'Instagram',
  'WhatsApp',
  'OFAC',
  'UN',
  'EU',
  'SFC',
  'HKMA',
  'TCSP',
  'MSO',
  'VASP',
  'PDPO',
  'CIS',
  'HTTPS',
  'JSON',
  'Webhook',
  // Meridian's business account tier and the euro stablecoin the card accepts.
  'PRO',
  'EURE',
  // US tax forms and numbers (W-9, W-8BEN, ITIN, SSN) keep their official names.
  'ITIN',
  'SSN',
  // File formats, sizes and protocols named as such.
  'JPG',
  'JPEG',
  'PNG',
  'WebP',
  'KB',
  'MB',
  'GB',
  'HMAC',
  'SHA',
  'SMTP',
  'NUL',
  // The subscription reference prefix operators match wires by (MW…).
  'MW',
]);

const UPPERCASE_ALLOWLIST = new Set([...ENGLISH_ALLOWLIST].map((word) => word.toUpperCase()));

/** Names of several words or with punctuation, taken out before the words are checked. */
const PHRASE_ALLOWLIST = ['3-D Secure', 'Node.js', 'HK$', 'US$'];

/**
 * Codes that look like words: language tags (zh-HK), with a digit (TRC20, ERC20, W-9, W-8BEN, SHA-256), constant names
 * (TRUST_PAYOUTS), format masks (YYYY-MM-DD, AAA-GG-SSSS) and one-letter options (A, B, C).
 */
const CODE_WORDS = [
  /^[a-z]{2}-[A-Z]{2}$/,
  /^(?=.*\d)[A-Za-z0-9-]+$/,
  /^[A-Z0-9]+(_[A-Z0-9]+)+$/,
  /^[A-Z]+(-[A-Z]+)+$/,
  /^[A-Z]$/,
];

/** What a text shows once its placeholders, markup, addresses and e-mail addresses are taken out. */
function visibleText(text: string): string {
  return PHRASE_ALLOWLIST.reduce((rest, phrase) => rest.split(phrase).join(' '), text)
    .replace(/\{\{[^}]*\}\}/g, ' ') // i18next {{name}}
    .replace(/\{[^}]*\}/g, ' ') // ICU / contracts {name}
    .replace(/<\/?[A-Za-z0-9]+[^>]*>/g, ' ') // markup and i18next <1></1>
    .replace(/https?:\/\/\S*/g, ' ')
    .replace(/[\w.+*-]+@[\w-]+(\.[\w-]+)+/g, ' ') // also masked: d**o@meridian.test
    .replace(/\/[\w/.:-]+/g, ' '); // paths such as /my/security
}

/**
 * The Simplified-only characters of `text`, each once, in order of appearance: the characters that
 * both OpenCC converters (cn → hk, cn → tw) change, less the reviewed `TRADITIONAL_ALLOWLIST`.
 */
export function simplifiedCharacters(text: string): string[] {
  const original = [...text];
  const hongKong = [...toHongKong(text)];
  const taiwan = [...toTaiwan(text)];
  const found = new Set<string>();
  const isFlagged = (char: string, hk: string | undefined, tw: string | undefined) =>
    hk !== char && tw !== char && !TRADITIONAL_ALLOWLIST.has(char);
  // The converters map character for character (their phrase tables keep the length); if one did
  // not, each character is converted alone.
  if (hongKong.length === original.length && taiwan.length === original.length) {
    original.forEach((char, index) => {
      if (isFlagged(char, hongKong[index], taiwan[index])) found.add(char);
    });
  } else {
    for (const char of original) if (isFlagged(char, toHongKong(char), toTaiwan(char))) found.add(char);
  }
  return [...found];
}

/**
 * The English words of `text` (outside placeholders, markup, links and e-mail addresses) that are
 * neither in `ENGLISH_ALLOWLIST` nor codes with digits (TRC20, ERC20, and range codes that begin
 * with a digit such as 24h or 7d, which are read as one token), each once.
 */
export function untranslatedEnglish(text: string, extraAllowed: ReadonlySet<string> = new Set()): string[] {
  const words = (visibleText(text).match(/[A-Za-z0-9][A-Za-z0-9_'’-]*/g) ?? []).filter(
    (token) => !/^[0-9]/.test(token),
  );
  const found = new Set<string>();
  for (const raw of words) {
    const word = raw.replace(/['’_-]+$/, '');
    if (ENGLISH_ALLOWLIST.has(word) || extraAllowed.has(word)) continue;
    // A name shown in capitals by the page's CSS (text-transform) reads "MERIDIAN" in its text.
    if (word === word.toUpperCase() && UPPERCASE_ALLOWLIST.has(word)) continue;
    if (CODE_WORDS.some((pattern) => pattern.test(word))) continue;
    found.add(word);
  }
  return [...found];
}

/** One finding: where (a file and key, or a page), what, and the offending characters or words. */
export interface ZhHkFinding {
  where: string;
  text: string;
  simplified: string[];
  english: string[];
}

/** Checks each `[where, text]` pair; answers only the texts with a finding. */
export function checkZhHkTexts(
  entries: Iterable<[where: string, text: string]>,
  extraAllowed?: ReadonlySet<string>,
): ZhHkFinding[] {
  const findings: ZhHkFinding[] = [];
  for (const [where, text] of entries) {
    const simplified = simplifiedCharacters(text);
    const english = untranslatedEnglish(text, extraAllowed);
    if (simplified.length || english.length) findings.push({ where, text, simplified, english });
  }
  return findings;
}
