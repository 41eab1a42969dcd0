import { Suspense } from 'react';
import { MarketTable, MarketTableSkeleton } from './market-table.tsx';

/**
 * The home page's market table slot (the app composes it into the home page): the market table,
 * behind its own Suspense boundary so that loading the `market` texts never blanks the page.
 */
export function MarketTableSlot() {
  return (
    <Suspense fallback={<MarketTableSkeleton />}>
      <MarketTable />
    </Suspense>
  );
}
