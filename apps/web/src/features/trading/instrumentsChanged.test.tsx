import { describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../ui/data-table/testing.tsx';
import { emitRealtime, instrumentsFixture } from './testing.ts';

vi.mock('../../api/realtime.ts', async () => (await import('./testing.ts')).realtimeModule);

const { useInstruments } = await import('./api.ts');

function Names() {
  const { data } = useInstruments();
  return <div data-testid="names">{(data ?? []).map((i) => `${i.name}:${i.tradable ? 'on' : 'off'}`).join(',')}</div>;
}

describe('instrument catalogue', () => {
  it('reloads at once when staff change instruments', async () => {
    let list = instrumentsFixture().slice(0, 2);
    const { calls } = mockFetch(() => list);
    const { getByTestId } = renderWithProviders(<Names />);
    await waitFor(() => expect(getByTestId('names').textContent).toBe('USD_CNH:on,EUR_USD:on'));
    list = [{ ...list[0], tradable: false }, list[1], { ...instrumentsFixture()[2] }];
    emitRealtime('instrumentsChanged', { at: Date.now() });
    await waitFor(() => expect(getByTestId('names').textContent).toBe('USD_CNH:off,EUR_USD:on,EUR_GBP:on'));
    expect(calls.filter((c) => c.path === '/dashboard/instruments')).toHaveLength(2);
  });
});
