import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { brandingFixture } from '../../test/fixtures.ts';
import { mockApi, renderScreen } from '../../test/render.tsx';
import { RiskWarning } from './RiskWarning.tsx';

const withBranding = (riskWarning: { losingPercent: string | null } | null) =>
  mockApi((method, path) =>
    method === 'GET' && path === '/settings/branding' ? { body: brandingFixture({ riskWarning }) } : undefined,
  );

describe('RiskWarning', () => {
  it('states the share of losing accounts the broker set', async () => {
    withBranding({ losingPercent: '74.5' });
    renderScreen(<RiskWarning />);
    expect((await screen.findByTestId('risk-warning')).textContent).toContain(
      '74.5 % of retail investor accounts lose money when trading CFDs with this provider.',
    );
  });

  it('warns without a figure when none is stated, and says nothing when an admin turned it off', async () => {
    withBranding({ losingPercent: null });
    const { unmount } = renderScreen(<RiskWarning />);
    const line = await screen.findByTestId('risk-warning');
    expect(line.textContent).toContain('high risk of losing money rapidly due to leverage');
    expect(line.textContent).not.toContain('retail investor accounts lose money');
    unmount();
    const calls = withBranding(null);
    renderScreen(<RiskWarning />);
    await expect.poll(() => calls.mock.calls.length).toBeGreaterThan(0);
    expect(screen.queryByTestId('risk-warning')).toBeNull();
  });
});
