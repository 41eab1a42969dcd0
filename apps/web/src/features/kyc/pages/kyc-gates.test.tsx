// @vitest-environment jsdom
import type { KycLevel } from '@meridian/contracts/kyc';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client.ts';
import { AmlPage } from './aml-page.tsx';
import { IdentityPage } from './identity-page.tsx';
import { InvestorPage } from './investor-page.tsx';
import { QualifiedPage } from './qualified-page.tsx';
import { TaxPage } from './tax-page.tsx';

const state = vi.hoisted(() => ({
  level: 0 as number,
  qualificationError: null as unknown,
}));
/** A query the gate has not enabled, or one still loading. */
const loading = { isPending: true, data: undefined, error: null };
const settled = (data: unknown) => ({ isPending: false, data, error: null });

vi.mock('react-i18next', () => ({
  useTranslation: () => ({ t: (key: string) => key, i18n: { language: 'en-US' } }),
}));
vi.mock('../../../components/require-user.tsx', () => ({
  RequireUser: ({ children }: { children: ReactNode }) => children,
}));
vi.mock('../../../components/page-frame.tsx', () => ({
  PageFrame: ({ children }: { children: ReactNode }) => children,
}));
vi.mock('../api/kyc-level.ts', () => ({ useKycLevel: () => ({ level: state.level, isPending: false }) }));
vi.mock('../api/basic-kyc.ts', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  useBasicKyc: () => settled({ status: state.level > 0 ? 1 : 0, draft: {}, message: null, expectedDecisionAt: null }),
}));
vi.mock('../api/level-two.ts', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  // The step pages' own states stay loading: these tests are about the gate before them.
  useInvestorState: (enabled: boolean) => (enabled ? settled({ status: 0, draft: {} }) : loading),
  useAmlState: (enabled: boolean) => (enabled ? settled({ current: null }) : loading),
  useTaxState: (enabled: boolean) => (enabled ? settled({ current: null }) : loading),
}));
vi.mock('../api/qualification.ts', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  useQualification: (enabled: boolean) =>
    state.qualificationError
      ? { isPending: false, data: undefined, error: state.qualificationError }
      : enabled
        ? settled({ status: 2, draft: {}, message: null, expectedDecisionAt: null, validUntil: null })
        : loading,
}));

function renderAt(level: KycLevel, page: ReactNode) {
  state.level = level;
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>{page}</MemoryRouter>
    </QueryClientProvider>,
  );
}

const stepStates = () =>
  Object.fromEntries(
    ['basic', 'investor', 'aml', 'tax', 'qualified'].map((key) => [
      key,
      screen.getByTestId(`identity-step-${key}`).dataset.state,
    ]),
  );
const neededStep = () => screen.queryByTestId('kyc-needs-level')?.dataset.step ?? null;

/**
 * What a user at each verification level can open (docs/kyc.md, docs/decisions/0011-verification-level.md):
 * basic KYC at level 0; the investor profile, AML questions and tax form from level 1; the
 * qualified-investor application from level 2. The overview locks what is not open yet, and a
 * step opened too early names the step that comes first.
 */
// The first render loads Ant Design: seconds on a machine shared by parallel builds.
describe('identity verification gates', { timeout: 30_000 }, () => {
  beforeAll(() => {
    window.matchMedia ??= ((query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    })) as typeof window.matchMedia;
  });
  afterEach(() => {
    cleanup();
    state.qualificationError = null;
  });

  it('overview at level 0: only basic KYC is open, and the residence change is not offered', () => {
    renderAt(0, <IdentityPage />);
    expect(stepStates()).toEqual({
      basic: 'todo',
      investor: 'locked',
      aml: 'locked',
      tax: 'locked',
      qualified: 'locked',
    });
    expect(screen.queryByTestId('identity-residence')).toBeNull();
  });

  it('overview at level 1: the investor steps open, the qualified application stays locked', () => {
    renderAt(1, <IdentityPage />);
    expect(stepStates()).toEqual({ basic: 'done', investor: 'todo', aml: 'todo', tax: 'todo', qualified: 'locked' });
    expect(screen.getByText('overview.state.lockedInvestor')).toBeTruthy();
    expect(screen.getByTestId('identity-residence')).toBeTruthy();
  });

  it.each([2, 3] as const)('overview at level %i: every step is open', (level) => {
    renderAt(level, <IdentityPage />);
    expect(Object.values(stepStates())).not.toContain('locked');
    expect(stepStates().qualified).toBe('review');
    expect(screen.getByTestId('identity-page').dataset.level).toBe(String(level));
  });

  it.each([
    ['investor profile', <InvestorPage key="investor" />],
    ['AML questions', <AmlPage key="aml" />],
    ['tax form', <TaxPage key="tax" />],
    ['qualified application', <QualifiedPage key="qualified" />],
  ])('at level 0, opening the %s asks for basic KYC first', (_, page) => {
    renderAt(0, page);
    expect(neededStep()).toBe('basic');
  });

  it.each([
    ['investor profile', <InvestorPage key="investor" />],
    ['AML questions', <AmlPage key="aml" />],
    ['tax form', <TaxPage key="tax" />],
  ])('at level 1, the %s is open', (_, page) => {
    renderAt(1, page);
    expect(neededStep()).toBeNull();
  });

  it('at level 1 the qualified application asks for investor verification first; at level 2 it opens', () => {
    renderAt(1, <QualifiedPage />);
    expect(neededStep()).toBe('investor');
    cleanup();
    renderAt(2, <QualifiedPage />);
    expect(neededStep()).toBeNull();
    expect(screen.getByTestId('kyc-under-review')).toBeTruthy();
  });

  it("the server's 143 answer (level not reached) asks for investor verification even when the level read 2", () => {
    state.qualificationError = new ApiError({
      statusCode: 143,
      message: 'Investor verification is needed first',
      content: null,
    });
    renderAt(2, <QualifiedPage />);
    expect(neededStep()).toBe('investor');
  });
});
