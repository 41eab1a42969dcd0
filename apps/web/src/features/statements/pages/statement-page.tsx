import type { ValidationErrorContent } from '@meridian/contracts/envelope';
import { toLocale } from '@meridian/contracts/locale';
import {
  type StatementAccount,
  type StatementFileFormat,
  type StatementMovement,
  statementFilePath,
  type Statement,
} from '@meridian/contracts/statements';
import {
  Alert,
  Button,
  Card,
  DatePicker,
  Descriptions,
  Empty,
  Flex,
  Form,
  Progress,
  Segmented,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../../components/page-frame.tsx';
import { RequireUser } from '../../../components/require-user.tsx';
import { isSuccess } from '../../../lib/api-client.ts';
import { useIsMobile } from '../../../lib/viewport.ts';
import { useLatestStatementGeneration } from '../api/get-latest-statement-generation.ts';
import { useStatementGeneration } from '../api/get-statement-generation.ts';
import { useStartStatementGeneration } from '../api/start-statement-generation.ts';
import { type DayRange, groupDecimal, monthRange, pickedRange } from '../lib/range.ts';
import { StatementLoans } from './statement-loans.tsx';
import './statement-page.css';

const STATUS_VALIDATION = 120;
type Mode = 'month' | 'range';

/**
 * /my/account/statement, AccountStatement: pick a month or a range of days, generate the
 * statement (a progress bar while the server reads the ledger), then see each account's opening
 * balance, movements and closing balance, and download the PDF, the CSV, or the Koinly and
 * CoinTracker tax files.
 */
export function StatementPage() {
  return (
    <RequireUser>
      <PageFrame>
        <StatementView />
      </PageFrame>
    </RequireUser>
  );
}

function StatementView() {
  const { t, i18n } = useTranslation('statements');
  const isMobile = useIsMobile();
  const today = dayjs().format('YYYY-MM-DD');
  const [mode, setMode] = useState<Mode>('month');
  const [month, setMonth] = useState<Dayjs>(() => dayjs());
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [fieldErrors, setFieldErrors] = useState<string[]>([]);
  const [generationId, setGenerationId] = useState<string | null>(null);
  const start = useStartStatementGeneration();
  const latest = useLatestStatementGeneration();
  // Until the user generates one here, show the last generation (a running one keeps its progress).
  const generation = useStatementGeneration(generationId ?? latest.data?.id ?? null);

  const chosen: DayRange | null =
    mode === 'month' ? monthRange(month, today) : range ? pickedRange(range[0], range[1]) : null;

  const generate = async () => {
    if (!chosen) return;
    setFieldErrors([]);
    const answer = await start.mutateAsync(chosen);
    if (isSuccess(answer)) setGenerationId(answer.content.id);
    else if (answer.statusCode === STATUS_VALIDATION) {
      const content = answer.content as ValidationErrorContent | null;
      setFieldErrors((content?.fields ?? []).map((field) => field.message));
    }
  };

  const current = generation.data;
  const isRunning = start.isPending || current?.status === 'RUNNING';
  const locale = toLocale(i18n.language);

  return (
    <Flex vertical gap={16} className="statement-page">
      <Card>
        <Form layout={isMobile ? 'vertical' : 'inline'} onFinish={generate} className="statement-form">
          <Form.Item label={t('form.period')}>
            <Segmented<Mode>
              value={mode}
              onChange={setMode}
              options={[
                { value: 'month', label: t('form.month') },
                { value: 'range', label: t('form.range') },
              ]}
              data-testid="statement-mode"
            />
          </Form.Item>
          <Form.Item
            label={mode === 'month' ? t('form.month') : t('form.range')}
            validateStatus={fieldErrors.length > 0 ? 'error' : undefined}
            help={fieldErrors.length > 0 ? fieldErrors.join(' ') : undefined}
          >
            {mode === 'month' ? (
              <DatePicker
                picker="month"
                value={month}
                allowClear={false}
                onChange={(value) => value && setMonth(value)}
                disabledDate={(value) => value.isAfter(dayjs(), 'month')}
                data-testid="statement-month"
              />
            ) : (
              <DatePicker.RangePicker
                value={range}
                onChange={(values) => setRange(values?.[0] && values[1] ? [values[0], values[1]] : null)}
                disabledDate={(value) => value.isAfter(dayjs(), 'day')}
                data-testid="statement-range"
              />
            )}
          </Form.Item>
          <Form.Item>
            <Button
              type="primary"
              htmlType="submit"
              loading={isRunning}
              disabled={!chosen}
              data-testid="statement-generate"
            >
              {t('form.generate')}
            </Button>
          </Form.Item>
        </Form>
        <Typography.Paragraph type="secondary" className="statement-hint">
          {t('form.hint')}
        </Typography.Paragraph>
      </Card>

      {current?.status === 'RUNNING' && (
        <Card data-testid="statement-progress">
          <Typography.Text>{t('progress.title', { from: current.from, to: current.to })}</Typography.Text>
          <Progress percent={current.progressPercent} status="active" />
        </Card>
      )}
      {current?.status === 'FAILED' && <Alert type="error" showIcon message={t('progress.failed')} />}
      {current?.status === 'DONE' && current.statement && (
        <StatementResult statement={current.statement} generationId={current.id} locale={locale} isMobile={isMobile} />
      )}
      {!current && !isRunning && (
        <Card>
          <Empty description={t('empty')} />
        </Card>
      )}
    </Flex>
  );
}

function StatementResult({
  statement,
  generationId,
  locale,
  isMobile,
}: {
  statement: Statement;
  generationId: string;
  locale: 'en-US' | 'zh-HK';
  isMobile: boolean;
}) {
  const { t } = useTranslation('statements');
  const download = (format: StatementFileFormat, label: string, testId: string) => (
    <Button href={statementFilePath(generationId, format, locale)} download data-testid={testId}>
      {label}
    </Button>
  );
  const accountName = (account: StatementAccount) =>
    `${t(`types.${account.type}`, { defaultValue: account.type })}${account.ownerRef ? ` · ${account.ownerRef}` : ''}`;

  const columns: ColumnsType<StatementAccount> = [
    {
      key: 'section',
      title: t('accounts.section'),
      render: (_, account) => <Tag>{t(`sections.${account.section}`)}</Tag>,
    },
    { key: 'account', title: t('accounts.account'), render: (_, account) => accountName(account) },
    { key: 'asset', dataIndex: 'asset', title: t('accounts.asset') },
    { key: 'opening', title: t('accounts.opening'), align: 'right', render: (_, a) => groupDecimal(a.opening) },
    {
      key: 'movements',
      title: t('accounts.movements'),
      align: 'right',
      render: (_, a) => a.movements.length,
    },
    { key: 'closing', title: t('accounts.closing'), align: 'right', render: (_, a) => groupDecimal(a.closing) },
    {
      key: 'closingUsd',
      title: t('accounts.closingUsd'),
      align: 'right',
      render: (_, a) => (a.closingUsd === null ? t('accounts.noPrice') : groupDecimal(a.closingUsd)),
    },
  ];

  return (
    <Card title={t('result.title', { from: statement.from, to: statement.to })} data-testid="statement-result">
      <Flex vertical gap={16}>
        <Descriptions size="small" column={isMobile ? 1 : 3}>
          <Descriptions.Item label={t('result.period')}>
            {statement.from} – {statement.to} (UTC)
          </Descriptions.Item>
          <Descriptions.Item label={t('result.totalUsd')}>
            <strong data-testid="statement-total">{groupDecimal(statement.closingUsdTotal)} USD</strong>
          </Descriptions.Item>
          <Descriptions.Item label={t('result.generatedAt')}>
            {dayjs(statement.generatedAt).format('YYYY-MM-DD HH:mm:ss')}
          </Descriptions.Item>
        </Descriptions>
        {statement.unvaluedAssets.length > 0 && (
          <Alert
            type="warning"
            showIcon
            data-testid="statement-unvalued"
            message={t('result.unvalued', { assets: statement.unvaluedAssets.join(', '), day: statement.to })}
          />
        )}
        <Flex wrap gap={8}>
          {download('pdf', t('download.pdf'), 'statement-download-pdf')}
          {download('csv', t('download.csv'), 'statement-download-csv')}
          {download('koinly', t('download.koinly'), 'statement-download-koinly')}
          {download('cointracker', t('download.cointracker'), 'statement-download-cointracker')}
        </Flex>
        <Typography.Text type="secondary">{t('download.taxHint')}</Typography.Text>
        {statement.accounts.length === 0 ? (
          <Empty description={t('accounts.none')} />
        ) : isMobile ? (
          <Flex vertical gap={12} data-testid="statement-accounts">
            {statement.accounts.map((account) => (
              <MobileAccount
                key={`${account.type}:${account.asset}:${account.ownerRef ?? ''}`}
                account={account}
                name={accountName(account)}
              />
            ))}
          </Flex>
        ) : (
          <Table<StatementAccount>
            size="small"
            rowKey={(a) => `${a.type}:${a.asset}:${a.ownerRef ?? ''}`}
            columns={columns}
            dataSource={statement.accounts}
            pagination={false}
            scroll={{ x: 760 }}
            expandable={{
              expandedRowRender: (account) => <Movements account={account} />,
              rowExpandable: (account) => account.movements.length > 0,
              defaultExpandedRowKeys: statement.accounts
                .filter((a) => a.movements.length > 0)
                .slice(0, 1)
                .map((a) => `${a.type}:${a.asset}:${a.ownerRef ?? ''}`),
            }}
            data-testid="statement-accounts"
          />
        )}
        <StatementLoans loans={statement.loans} isMobile={isMobile} />
      </Flex>
    </Card>
  );
}

/** An account on a phone: its balances, then its movements as a compact list (no sideways scrolling). */
function MobileAccount({ account, name }: { account: StatementAccount; name: string }) {
  const { t } = useTranslation('statements');
  return (
    <Card size="small" title={`${t(`sections.${account.section}`)} · ${account.asset}`} extra={name}>
      <Descriptions size="small" column={1}>
        <Descriptions.Item label={t('accounts.opening')}>{groupDecimal(account.opening)}</Descriptions.Item>
        <Descriptions.Item label={t('accounts.closing')}>{groupDecimal(account.closing)}</Descriptions.Item>
        <Descriptions.Item label={t('accounts.closingUsd')}>
          {account.closingUsd === null ? t('accounts.noPrice') : groupDecimal(account.closingUsd)}
        </Descriptions.Item>
      </Descriptions>
      {account.movements.length > 0 && (
        <ul className="statement-mobile-movements" data-testid="statement-movements">
          {account.movements.map((m) => (
            <li key={`${m.entryId}:${m.amount}`}>
              <Flex justify="space-between" gap={8}>
                <span>{t(`kinds.${m.kind}`, { defaultValue: m.kind })}</span>
                <span className={m.amount.startsWith('-') ? 'statement-debit' : 'statement-credit'}>
                  {groupDecimal(m.amount)}
                </span>
              </Flex>
              <Flex justify="space-between" gap={8} className="statement-mobile-meta">
                <span>{m.at.slice(0, 16).replace('T', ' ')}</span>
                <span>
                  {t('movements.balance')} {groupDecimal(m.balanceAfter)}
                </span>
              </Flex>
              {!/^0(\.0*)?$/.test(m.fee) && (
                <div className="statement-mobile-meta">
                  {t('movements.fee')} {groupDecimal(m.fee)}
                </div>
              )}
              <div className="statement-mobile-meta statement-mobile-reference">
                <code className="statement-reference">{m.reference}</code>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** One account's movements, oldest first, with the running balance. */
function Movements({ account }: { account: StatementAccount }) {
  const { t } = useTranslation('statements');
  const columns: ColumnsType<StatementMovement> = [
    { key: 'at', title: t('movements.at'), render: (_, m) => m.at.slice(0, 19).replace('T', ' ') },
    { key: 'kind', title: t('movements.kind'), render: (_, m) => t(`kinds.${m.kind}`, { defaultValue: m.kind }) },
    {
      key: 'reference',
      title: t('movements.reference'),
      // A ledger reference is a code (e.g. `fund-order:12`), shown as typed in every language.
      render: (_, m) => <code className="statement-reference">{m.reference}</code>,
    },
    {
      key: 'amount',
      title: t('movements.amount'),
      align: 'right',
      render: (_, m) => (
        <span className={m.amount.startsWith('-') ? 'statement-debit' : 'statement-credit'}>
          {groupDecimal(m.amount)}
        </span>
      ),
    },
    {
      key: 'fee',
      title: t('movements.fee'),
      align: 'right',
      render: (_, m) => (/^0(\.0*)?$/.test(m.fee) ? '' : groupDecimal(m.fee)),
    },
    { key: 'balance', title: t('movements.balance'), align: 'right', render: (_, m) => groupDecimal(m.balanceAfter) },
    {
      key: 'usd',
      title: t('movements.usd'),
      align: 'right',
      render: (_, m) => (m.amountUsd === null ? '—' : groupDecimal(m.amountUsd)),
    },
  ];
  return (
    <Table<StatementMovement>
      size="small"
      rowKey={(m) => `${m.entryId}:${m.amount}`}
      columns={columns}
      dataSource={account.movements}
      pagination={account.movements.length > 20 ? { pageSize: 20, size: 'small' } : false}
      scroll={{ x: 820 }}
      data-testid="statement-movements"
    />
  );
}
