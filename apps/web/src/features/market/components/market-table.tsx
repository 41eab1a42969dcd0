import { useTranslation } from 'react-i18next';
import { useMarketPrices } from '../api/get-market-prices.ts';
import { changeDirection, formatChangePercent } from '../lib/format.ts';
import { money } from '../../../lib/money.ts';
import { CoinIcon } from './coin-icon.tsx';
import { Sparkline } from './sparkline.tsx';
import './market-table.css';

/** Skeleton rows while the first answer is on its way, so the page does not move when it arrives. */
const SKELETON_ROWS = 5;

function SkeletonRows() {
  return Array.from({ length: SKELETON_ROWS }, (_, index) => (
    <tr key={index} className="market__skeleton" aria-hidden="true">
      <td colSpan={4}>
        <span />
      </td>
    </tr>
  ));
}

/**
 * The table's place while its `market` texts load (when the app started on another route and
 * navigated home): the same size, no words and no prices.
 */
export function MarketTableSkeleton() {
  return (
    <section className="home-section market" aria-hidden="true">
      <div className="container">
        <div className="section-head market__head-skeleton">
          <span />
        </div>
        <div className="market__card">
          <table className="market__table">
            <tbody>
              <SkeletonRows />
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}

/**
 * The home market table: coin code with its mark, the last 24 hours as a small trend
 * line, the 24 h change coloured green or red, and the dollar price with thousands separators and at
 * least 2 decimals. It refreshes itself (TanStack Query) without a page reload; while prices cannot
 * be loaded at all, the section says so rather than showing placeholder prices.
 */
export function MarketTable() {
  const { t, ready } = useTranslation('market');
  const { data: rows, isPending, isError } = useMarketPrices();
  if (!ready) return <MarketTableSkeleton />;

  return (
    <section className="home-section market" aria-labelledby="market-title" data-testid="market-table">
      <div className="container">
        <div className="section-head">
          <h2 id="market-title">{t('title')}</h2>
          <p>{t('subtitle')}</p>
        </div>
        <div className="market__card">
          <table className="market__table">
            <thead>
              <tr>
                <th scope="col">{t('columns.coin')}</th>
                <th scope="col" className="market__trend-col">
                  {t('columns.trend')}
                </th>
                <th scope="col" className="market__num">
                  {t('columns.change')}
                </th>
                <th scope="col" className="market__num">
                  {t('columns.price')}
                </th>
              </tr>
            </thead>
            <tbody aria-busy={isPending}>
              {rows?.map((row) => {
                const direction = changeDirection(row.changePercent);
                return (
                  <tr key={row.coinCode} data-testid={`market-row-${row.coinCode}`}>
                    <th scope="row">
                      {/* Flex inside the cell: a flex th stops being a table cell and its border drifts. */}
                      <div className="market__coin">
                        <CoinIcon coinCode={row.coinCode} />
                        <span>
                          <strong>{row.coinCode}</strong>
                          <small>{t(`coins.${row.coinCode}`)}</small>
                        </span>
                      </div>
                    </th>
                    <td className="market__trend-col">
                      <Sparkline
                        values={row.lineCode}
                        direction={direction}
                        label={t('trendLabel', { coin: row.coinCode })}
                      />
                    </td>
                    <td
                      className={`market__num market__change market__change--${direction}`}
                      data-testid="market-change"
                    >
                      {formatChangePercent(row.changePercent)}
                    </td>
                    <td className="market__num market__price" data-testid="market-price">
                      {money(row.currentPrice, 'USD', { keepDecimals: true })}
                    </td>
                  </tr>
                );
              })}
              {isPending && <SkeletonRows />}
              {!isPending && (!rows || rows.length === 0) && (
                <tr>
                  <td colSpan={4} className="market__empty">
                    {isError ? t('unavailable') : t('empty')}
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
        <p className="market__note">{t('note')}</p>
      </div>
    </section>
  );
}
