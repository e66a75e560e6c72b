import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { brandingFixture } from '../test/fixtures.ts';
import { mockApi } from '../test/render.tsx';
import { AppProviders } from './providers.tsx';
import { createAppRouter } from './router.tsx';

afterEach(() => {
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

describe('app router', () => {
  it('opens a lazily loaded page first without React Router warning of a missing HydrateFallback', async () => {
    const warn = vi.spyOn(console, 'warn');
    const error = vi.spyOn(console, 'error');
    mockApi((_method, path) => {
      if (path === '/settings/branding') return { body: brandingFixture() };
      if (path === '/auth/user') return { status: 401, body: { message: 'Unauthenticated.' } };
      if (path === '/countries') return { body: [] };
      return undefined;
    });
    window.history.replaceState(null, '', '/forgot-password');
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <AppProviders queryClient={queryClient}>
        <RouterProvider router={createAppRouter()} />
      </AppProviders>,
    );
    expect(await screen.findByText('Forgot Password', {}, { timeout: 20_000 })).toBeTruthy();
    const said = [...warn.mock.calls, ...error.mock.calls].flat().map(String);
    expect(said.filter((m) => m.includes('HydrateFallback'))).toEqual([]);
  }, 30_000);
});
