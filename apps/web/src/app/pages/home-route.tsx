import { HomePage } from '../../features/home/components/home-page.tsx';
import { BannerSection } from '../../features/market/components/banner-section.tsx';
import { MarketTableSlot } from '../../features/market/components/market-table-slot.tsx';

/** The home route: the home feature's page with the market feature's sections composed in. */
export function HomeRoute() {
  return <HomePage banners={<BannerSection />} marketTable={<MarketTableSlot />} />;
}
