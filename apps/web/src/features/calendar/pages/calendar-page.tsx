import { Button, Card, Col, Flex, Row, Skeleton, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../../components/page-frame.tsx';
import { RequireUser } from '../../../components/require-user.tsx';
import { useCalendarEvents } from '../api/get-calendar-events.ts';
import { CalendarEventList } from '../components/calendar-event-list.tsx';
import { CalendarFeedCard } from '../components/calendar-feed-card.tsx';
import { monthLabel, pageRange } from '../lib/calendar-range.ts';
import './calendar-page.css';

/** How many months "Earlier" and "Later" move the range. */
const STEP_MONTHS = 3;

/**
 * /my/calendar: the user's dates — fixed-fund maturities, payout days, loan
 * repayment and grace ends, trust inactivity reminders, identity renewals — for twelve months from
 * this month (moved by three months with Earlier / Later), grouped by month, each linking to its
 * record; above them the secret ICS address with copy, subscribe and rotate.
 */
export function CalendarPage() {
  return (
    <RequireUser>
      <PageFrame>
        <CalendarContent />
      </PageFrame>
    </RequireUser>
  );
}

function CalendarContent() {
  const { t, i18n } = useTranslation('calendar');
  const [monthOffset, setMonthOffset] = useState(0);
  const range = useMemo(() => pageRange(new Date(), monthOffset), [monthOffset]);
  const events = useCalendarEvents(range.from, range.to);
  // Short month names, so the range fits the card's head at 390 px.
  const rangeLabel = `${monthLabel(range.from.slice(0, 7), i18n.language, 'short')} – ${monthLabel(range.to.slice(0, 7), i18n.language, 'short')}`;
  return (
    <Flex vertical gap={16} className="calendar-page">
      <Typography.Paragraph type="secondary" className="calendar-page__intro">
        {t('intro')}
      </Typography.Paragraph>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={16}>
          <Card
            title={<span data-testid="calendar-range">{rangeLabel}</span>}
            extra={
              <Flex gap={8}>
                <Button size="small" onClick={() => setMonthOffset((value) => value - STEP_MONTHS)}>
                  {t('list.earlier')}
                </Button>
                <Button size="small" onClick={() => setMonthOffset((value) => value + STEP_MONTHS)}>
                  {t('list.later')}
                </Button>
              </Flex>
            }
            className="calendar-page__events"
          >
            {events.data ? <CalendarEventList events={events.data.events} /> : <Skeleton active />}
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <div className="calendar-page__feed">
            <CalendarFeedCard />
          </div>
        </Col>
      </Row>
    </Flex>
  );
}
