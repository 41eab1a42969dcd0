import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../../components/page-frame.tsx';
import { pathTo } from '../../../config/paths.ts';
import { useUserId } from '../../../lib/session.ts';
import { openActionModal } from '../../../stores/modal-store.ts';
import { MessageList } from '../components/message-list.tsx';
import './messages-page.css';

/** /messages: the message centre. */
export function MessagesPage() {
  const { t } = useTranslation('notices');
  const userId = useUserId();
  return (
    <PageFrame>
      <div className="content-card messages-card">
        {userId ? (
          <MessageList userId={userId} />
        ) : (
          <Result
            status="info"
            title={t('page.guest')}
            extra={
              <Button type="primary" onClick={() => openActionModal('login', { returnTo: pathTo('Messages') })}>
                {t('common:header.login')}
              </Button>
            }
          />
        )}
      </div>
    </PageFrame>
  );
}
