import { Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../components/page-frame.tsx';
import { breakpointOf, useIsMobile } from '../../lib/viewport.ts';
import { useUserId } from '../../lib/session.ts';

/**
 * The Test route: a diagnostics page for support and QA showing what the shell knows
 * about this browser. It shows no account data.
 */
export function TestPage() {
  const { t, i18n } = useTranslation();
  const isMobile = useIsMobile();
  const userId = useUserId();
  return (
    <div className="container section">
      <PageFrame subtitle={t('test.subtitle')}>
        <Descriptions
          bordered
          column={1}
          items={[
            { key: 'locale', label: t('test.locale'), children: i18n.language },
            {
              key: 'viewport',
              label: t('test.viewport'),
              children: `${window.innerWidth} × ${window.innerHeight} (${breakpointOf(window.innerWidth)})`,
            },
            { key: 'mobile', label: t('test.mobile'), children: isMobile ? t('test.yes') : t('test.no') },
            { key: 'session', label: t('test.session'), children: userId ? t('test.signedIn') : t('test.guest') },
            { key: 'build', label: t('test.build'), children: import.meta.env.MODE },
          ]}
        />
      </PageFrame>
    </div>
  );
}
