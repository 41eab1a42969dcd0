import { Button, Result } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../config/paths.ts';

/** A clock-and-spark illustration for "available soon" states; inline so it needs no request. */
function SoonIllustration() {
  return (
    <svg width="88" height="88" viewBox="0 0 88 88" aria-hidden="true">
      <circle cx="44" cy="44" r="40" fill="#e6f6f4" />
      <circle cx="44" cy="44" r="24" fill="#fff" stroke="#0d9488" strokeWidth="3" />
      <path
        d="M44 31v14l9 6"
        stroke="#0b1630"
        strokeWidth="3"
        fill="none"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <path d="M70 16l2 5 5 2-5 2-2 5-2-5-5-2 5-2z" fill="#2dd4bf" />
    </svg>
  );
}

/**
 * The honest state of a page whose feature has not shipped yet: says so, in the user's language,
 * and shows no figures. `feature` names what is coming.
 */
export function ComingSoon({
  feature,
  extra,
  compact = false,
}: {
  feature: string;
  extra?: ReactNode;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Result
      className={`coming-soon${compact ? ' coming-soon--compact' : ''}`}
      icon={<SoonIllustration />}
      title={t('soon.title', { feature })}
      subTitle={t('soon.description')}
      extra={
        // `null` asks for no action at all; leaving it out gives the way back home.
        extra === undefined ? (
          <Link to={pathTo('Home')}>
            <Button>{t('soon.backHome')}</Button>
          </Link>
        ) : (
          extra
        )
      }
      data-testid="coming-soon"
    />
  );
}
