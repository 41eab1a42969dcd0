import { App, Button, type ButtonProps, Card, Flex, Popconfirm, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCalendarFeed } from '../api/get-calendar-feed.ts';
import { useRotateCalendarFeed } from '../api/rotate-calendar-feed.ts';
import { webcalUrl } from '../lib/calendar-range.ts';

/**
 * The secret ICS address: shown with a copy button, a `webcal:` subscribe link, and
 * "Rotate", which asks first, since every calendar app subscribed to the old address stops updating.
 */
export function CalendarFeedCard() {
  const { t, i18n } = useTranslation('calendar');
  const { message } = App.useApp();
  const feed = useCalendarFeed();
  const rotate = useRotateCalendarFeed();
  const url = feed.data?.url;
  return (
    <Card title={t('feed.title')} className="calendar-feed" data-testid="calendar-feed">
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">{t('feed.help')}</Typography.Text>
        {url ? (
          <>
            <Typography.Paragraph
              className="calendar-feed__url"
              code
              copyable={{ text: url, tooltips: [t('feed.copy'), t('feed.copied')] }}
              data-testid="calendar-feed-url"
            >
              {url}
            </Typography.Paragraph>
            <Flex gap={8} wrap>
              <Button type="primary" href={webcalUrl(url)} data-testid="calendar-feed-subscribe">
                {t('feed.subscribe')}
              </Button>
              <Popconfirm
                title={t('feed.rotateTitle')}
                description={<div className="calendar-feed__warning">{t('feed.rotateWarning')}</div>}
                okText={t('feed.rotateOk')}
                cancelText={t('feed.cancel')}
                okButtonProps={{ danger: true, 'data-testid': 'calendar-feed-rotate-ok' } as ButtonProps}
                onConfirm={async () => {
                  await rotate.mutateAsync();
                  void message.success(t('feed.rotated'));
                }}
              >
                <Button danger loading={rotate.isPending} data-testid="calendar-feed-rotate">
                  {t('feed.rotate')}
                </Button>
              </Popconfirm>
            </Flex>
            {feed.data && (
              <Typography.Text type="secondary">
                {t('feed.createdAt', {
                  date: new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
                    new Date(feed.data.createdAt),
                  ),
                })}
              </Typography.Text>
            )}
          </>
        ) : (
          <Skeleton active paragraph={{ rows: 1 }} />
        )}
      </Flex>
    </Card>
  );
}
