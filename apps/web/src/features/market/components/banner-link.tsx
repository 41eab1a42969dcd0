import type { Banner } from '@meridian/contracts/banner';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export interface BannerLinkProps {
  banner: Banner;
  /** A copy rendered for looping: out of the tab order (it is hidden from assistive tech). */
  isClone: boolean;
  children: ReactNode;
}

/**
 * A banner's link: none without `webLink`; a new tab when `isBlank`; the router for a path
 * inside the product; a plain link otherwise.
 */
export function BannerLink({ banner, isClone, children }: BannerLinkProps) {
  const common = { className: 'banner-slide__link', tabIndex: isClone ? -1 : undefined, 'aria-label': banner.title };
  if (!banner.webLink) return <span className="banner-slide__link">{children}</span>;
  if (banner.isBlank) {
    return (
      <a href={banner.webLink} target="_blank" rel="noopener noreferrer" {...common}>
        {children}
      </a>
    );
  }
  if (banner.webLink.startsWith('/')) {
    return (
      <Link to={banner.webLink} {...common}>
        {children}
      </Link>
    );
  }
  return (
    <a href={banner.webLink} {...common}>
      {children}
    </a>
  );
}
