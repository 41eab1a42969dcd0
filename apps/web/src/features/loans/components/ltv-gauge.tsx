import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { ltvZoneOf, type LtvLevels, pctForDrawing } from '../lib/ltv.ts';

/** The gauge's scale ends at 100 % LTV; a loan past it is drawn at the end. */
const SCALE_MAX_PCT = 100;

/**
 * A loan's LTV as a bar from 0 to 100 % with the initial, margin-call and liquidation levels marked
 * (LTV gauge). The percentages are the API's decimal strings; they become numbers
 * only to place the marks. The figure shown is the API's own text.
 */
export function LtvGauge({
  ltvPct,
  levels,
  compact = false,
  testId = 'ltv-gauge',
}: {
  /** LTV in percent as the API gives it ("45.20"), or null before there is an amount. */
  ltvPct: string | null;
  levels: LtvLevels;
  compact?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation('loans');
  const zone = ltvPct === null ? 'safe' : ltvZoneOf(ltvPct, levels);
  const at = (pct: string) => `${Math.min(pctForDrawing(pct), SCALE_MAX_PCT)}%`;
  const marks = [
    { key: 'initial', pct: levels.initialPct },
    { key: 'marginCall', pct: levels.marginCallPct },
    { key: 'liquidation', pct: levels.liquidationPct },
  ] as const;
  return (
    <div className={`ltv-gauge ltv-gauge--${zone}${compact ? ' ltv-gauge--compact' : ''}`} data-testid={testId}>
      <div className="ltv-gauge__head">
        <span className="ltv-gauge__label">{t('ltv.label')}</span>
        <strong className="ltv-gauge__value" data-testid={`${testId}-value`} data-zone={zone}>
          {ltvPct === null ? '—' : `${ltvPct}%`}
        </strong>
        {ltvPct !== null && <span className="ltv-gauge__zone">{t(`ltv.zone.${zone}`)}</span>}
      </div>
      <div
        className="ltv-gauge__track"
        role="meter"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={ltvPct === null ? 0 : pctForDrawing(ltvPct)}
        aria-label={t('ltv.label')}
      >
        <div className="ltv-gauge__fill" style={{ width: ltvPct === null ? 0 : at(ltvPct) }} />
        {marks.map((mark) => (
          <Tooltip key={mark.key} title={t(`ltv.mark.${mark.key}`, { pct: mark.pct })}>
            <span className={`ltv-gauge__mark ltv-gauge__mark--${mark.key}`} style={{ left: at(mark.pct) }} />
          </Tooltip>
        ))}
      </div>
      {!compact && (
        <div className="ltv-gauge__legend">
          {marks.map((mark) => (
            <span key={mark.key}>
              <i className={`ltv-gauge__dot ltv-gauge__dot--${mark.key}`} />
              {t(`ltv.mark.${mark.key}`, { pct: mark.pct })}
            </span>
          ))}
        </div>
      )}
    </div>
  );
}
