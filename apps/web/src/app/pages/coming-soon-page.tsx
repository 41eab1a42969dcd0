import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../components/coming-soon.tsx';
import { PageFrame } from '../../components/page-frame.tsx';
import { useRouteMeta } from '../../hooks/use-route-meta.ts';

/**
 * The page of a route whose feature arrives with a later issue: the real frame (breadcrumbs, title,
 * sibling tabs, side menu from the layout) around an honest "available soon" state.
 */
export function ComingSoonPage() {
  const { t } = useTranslation();
  const { current } = useRouteMeta();
  return (
    <PageFrame>
      <div className="content-card">
        <ComingSoon feature={t(`routes.${current}`)} />
      </div>
    </PageFrame>
  );
}
