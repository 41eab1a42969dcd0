import { Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isPastDue, splitDuration } from '../lib/time.ts';

/** How often the timer's text is redrawn; it shows whole minutes. */
const TICK_MS = 30_000;

/** The current time, redrawn every half minute. */
function useNowMs(): number {
  const [nowMs, setNowMs] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNowMs(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return nowMs;
}

/**
 * The SLA timer of a submission: the time since it was submitted, red once its decision is due
 * (`dueAt`, 1 working day after submission for KYC).
 */
export function SlaTimer({ submittedAt, dueAt }: { submittedAt: string | null; dueAt: string | null }) {
  const { t } = useTranslation('admin');
  const nowMs = useNowMs();
  if (!submittedAt) return <>—</>;
  const text = t('common.duration', splitDuration(nowMs - new Date(submittedAt).getTime()));
  const isOverdue = isPastDue(nowMs, dueAt);
  return (
    <Tag color={isOverdue ? 'red' : 'default'} data-testid="sla-timer">
      {isOverdue ? t('kyc.overdueSince', { time: text }) : t('kyc.waitingFor', { time: text })}
    </Tag>
  );
}
