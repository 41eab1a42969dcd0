import type { CalendarEvent, CalendarEventKind } from '@meridian/contracts/calendar';
import { Empty, Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { dayLabel, groupByMonth, hongKongTime, monthLabel } from '../lib/calendar-range.ts';

/** Tag colour per kind: funds green, loans orange/red, trusts purple, identity blue. */
const KIND_COLOR: Record<CalendarEventKind, string> = {
  FUND_MATURITY: 'green',
  FUND_PAYOUT: 'cyan',
  LOAN_REPAYMENT: 'orange',
  LOAN_GRACE_END: 'red',
  TRUST_REMINDER: 'purple',
  TRUST_DEADLINE: 'magenta',
  TAX_FORM_DUE: 'blue',
  QUALIFIED_RENEWAL: 'geekblue',
};

/**
 * The events as a list grouped by month (reads better than a month grid at 390 px): per event its
 * Hong Kong day and weekday, kind, time (timed events, Hong Kong time), title linking to the record,
 * and the description (the first time its text appears).
 */
export function CalendarEventList({ events }: { events: readonly CalendarEvent[] }) {
  const { t, i18n } = useTranslation('calendar');
  if (events.length === 0) return <Empty description={t('list.empty')} data-testid="calendar-empty" />;
  // A description repeated word for word (every month's payout, a trust's three reminders) is shown once.
  const describedUids = new Set<string>();
  const seenDescriptions = new Set<string>();
  for (const event of events) {
    if (seenDescriptions.has(event.description)) continue;
    seenDescriptions.add(event.description);
    describedUids.add(event.uid);
  }
  return (
    <div className="calendar-list">
      {groupByMonth(events).map((group) => (
        <section key={group.month} className="calendar-month" aria-label={monthLabel(group.month, i18n.language)}>
          <Typography.Title level={3} className="calendar-month__title">
            {monthLabel(group.month, i18n.language)}
          </Typography.Title>
          <ul className="calendar-month__events">
            {group.events.map((event) => {
              const day = dayLabel(event.day, i18n.language);
              return (
                <li key={event.uid} className="calendar-event" data-testid="calendar-event" data-kind={event.kind}>
                  <div className="calendar-event__date" aria-hidden="true">
                    <span className="calendar-event__day">{day.date}</span>
                    <span className="calendar-event__weekday">{day.weekday}</span>
                  </div>
                  <Flex vertical gap={4} className="calendar-event__body">
                    <Flex gap={8} wrap align="center">
                      <Tag color={KIND_COLOR[event.kind]} className="calendar-event__kind">
                        {t(`kinds.${event.kind}`)}
                      </Tag>
                      <Typography.Text type="secondary" className="calendar-event__when">
                        {event.isAllDay || !event.startsAt
                          ? t('list.allDay', { date: event.day })
                          : t('list.at', { date: event.day, time: hongKongTime(event.startsAt, i18n.language) })}
                      </Typography.Text>
                    </Flex>
                    <Link to={event.link} className="calendar-event__title" data-testid="calendar-event-link">
                      {event.title}
                    </Link>
                    {describedUids.has(event.uid) && (
                      <Typography.Text type="secondary" className="calendar-event__description">
                        {event.description}
                      </Typography.Text>
                    )}
                  </Flex>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </div>
  );
}
