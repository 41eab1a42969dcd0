/** An ISO time as a date and time in the operator's language (and the browser's time zone). */
export function formatDateTime(iso: string | null | undefined, locale: string): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** Whole hours and the minutes left over in `durationMs` (negative durations count as zero); rounds down. */
export function splitDuration(durationMs: number): { hours: number; minutes: number } {
  const minutesTotal = Math.max(0, Math.floor(durationMs / 60_000));
  return { hours: Math.floor(minutesTotal / 60), minutes: minutesTotal % 60 };
}

/** Whether the operator has been idle at least `idleTimeoutMinutes` since `lastActivityMs`. */
export function isIdleExpired(lastActivityMs: number, nowMs: number, idleTimeoutMinutes: number): boolean {
  return nowMs - lastActivityMs >= idleTimeoutMinutes * 60_000;
}

/** Whether a queued item is past its due time (or its SLA hours from submission when no due time is given). */
export function isPastDue(
  nowMs: number,
  dueAt: string | null,
  submittedAt?: string | null,
  slaHours?: number | null,
): boolean {
  if (dueAt) return nowMs > new Date(dueAt).getTime();
  if (submittedAt && slaHours !== null && slaHours !== undefined)
    return nowMs - new Date(submittedAt).getTime() > slaHours * 3_600_000;
  return false;
}
