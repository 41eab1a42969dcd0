import dayjs, { type ConfigType } from 'dayjs';

/**
 * Times of the message centre, in the browser's time zone. Loaded with the bell's panel and the
 * messages page only, so dayjs stays off the header's first load.
 */

/** Header preview: HH:mm:ss when the message is from today, else YYYY-MM-DD. */
export function formatPreviewTime(createTime: string, now: ConfigType = new Date()): string {
  const time = dayjs(createTime);
  if (!time.isValid()) return '';
  return time.isSame(dayjs(now), 'day') ? time.format('HH:mm:ss') : time.format('YYYY-MM-DD');
}

/** The messages page: the product's date-time format (YYYY-MM-DD HH:mm). */
export function formatMessageDateTime(createTime: string): string {
  const time = dayjs(createTime);
  return time.isValid() ? time.format('YYYY-MM-DD HH:mm') : '';
}
