import type { ReactElement } from 'react';
import { render, type RenderResult } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import { vi } from 'vitest';
import { AppProviders } from '../app/providers.tsx';

export type Responder = (method: string, path: string, body: unknown) => { status?: number; body: unknown } | undefined;

/**
 * Replaces fetch with a table of canned API answers. Unknown calls answer 404 so a test notices them.
 * Returns the mock to inspect the calls made.
 */
export function mockApi(responder: Responder) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input.toString(), 'http://localhost');
    const path = url.pathname.replace(/^\/api/, '');
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const answer = responder(method, path, body) ?? { status: 404, body: { message: 'Not found.' } };
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** Renders a screen inside the app's providers and a memory router at `path`. */
export function renderScreen(
  element: ReactElement,
  options: { path?: string; route?: string } = {},
): RenderResult & { queryClient: QueryClient } {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: options.route ?? '*', element },
      { path: '/dashboard', element: <div>dashboard page</div> },
    ],
    { initialEntries: [options.path ?? '/'] },
  );
  const result = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, queryClient };
}
