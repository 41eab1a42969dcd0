import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo, ROUTE_PATHS } from '../config/paths.ts';
import { useRouteMeta } from '../hooks/use-route-meta.ts';
import './page-frame.css';

interface PageFrameProps {
  /** Defaults to the current route's translated name. */
  title?: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
  /** Tabs to show instead of the matched parent's `handle.tabs`, with the active one. */
  tabs?: { items: { key: string; label: ReactNode; to: string }[]; activeKey: string };
  children: ReactNode;
}

/**
 * The frame of an application page: breadcrumbs from the matched routes, title, optional tabs of
 * sibling routes (a parent route's `handle.tabs`), then the content. Plain React and CSS (drawn like
 * Ant Design's Breadcrumb it replaced): the app shell paints it before Ant Design loads
 * (`components/page-shell.tsx`). The tabs go to other pages, so
 * they are a navigation of links (the current one `aria-current="page"`), not an ARIA tablist:
 * Ant Design's Tabs put its overflow "more" button inside the tablist at 390 px (axe
 * aria-required-children); the links wrap onto more lines instead (page-frame.css).
 */
export function PageFrame({ title, subtitle, actions, tabs, children }: PageFrameProps) {
  const { t } = useTranslation();
  const { named, current } = useRouteMeta();

  const crumbs = [
    { key: 'Home', title: <Link to={pathTo('Home')}>{t('routes.Home')}</Link> },
    ...named.map((match, index) => ({
      key: match.name,
      title:
        index === named.length - 1 ? (
          t(`routes.${match.name}`)
        ) : (
          <Link to={match.pathname}>{t(`routes.${match.name}`)}</Link>
        ),
    })),
  ];

  const parentWithTabs = [...named].reverse().find((match) => match.handle.tabs && match.name !== current);
  const routeTabs = parentWithTabs?.handle.tabs;
  const tabConfig =
    tabs ??
    (routeTabs
      ? {
          activeKey: current,
          items: routeTabs.map((name) => ({ key: name, label: t(`routes.${name}`), to: ROUTE_PATHS[name] })),
        }
      : undefined);

  return (
    <div className="page-frame" data-testid="page-frame" data-route={current}>
      <nav className="page-frame__crumbs" aria-label={t('pageFrame.breadcrumbs')} data-testid="breadcrumbs">
        <ol>
          {crumbs.map((crumb, index) => (
            <li key={crumb.key}>
              {index > 0 && (
                <span className="page-frame__crumb-separator" aria-hidden="true">
                  /
                </span>
              )}
              <span className="page-frame__crumb">{crumb.title}</span>
            </li>
          ))}
        </ol>
      </nav>
      <div className="page-frame__head">
        <div>
          <h1 className="page-frame__title" data-testid="page-title">
            {title ?? t(`routes.${current}`)}
          </h1>
          {subtitle && <p className="page-frame__subtitle">{subtitle}</p>}
        </div>
        {actions && <div className="page-frame__actions">{actions}</div>}
      </div>
      {tabConfig && (
        <nav className="page-frame__tabs" aria-label={t('pageFrame.tabs')} data-testid="page-tabs">
          {tabConfig.items.map((item) => (
            <Link
              key={item.key}
              to={item.to}
              className="page-frame__tab"
              aria-current={item.key === tabConfig.activeKey ? 'page' : undefined}
            >
              {item.label}
            </Link>
          ))}
        </nav>
      )}
      <div className="page-frame__body">{children}</div>
    </div>
  );
}
