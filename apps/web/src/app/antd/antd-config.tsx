/**
 * Ant Design's configuration moved to `components/antd-config.tsx`, so
 * that shared components (the lazily loaded Ant Design islands of `components/antd-island.tsx`) can
 * use it; the app's layouts keep importing it from here.
 */
export { AntdConfig, prepareAntd } from '../../components/antd-config.tsx';
