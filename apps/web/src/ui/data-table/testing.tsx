import type { ReactElement } from 'react';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { AppProviders } from '../../app/providers.tsx';
import { i18n, initI18n } from '../../i18n/index.ts';

/** One recorded API call of a component test. */
export interface FetchCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

type Reply = unknown | { status: number; body: unknown };
const isStatusReply = (r: unknown): r is { status: number; body: unknown } =>
  typeof r === 'object' &&
  r !== null &&
  'status' in r &&
  'body' in r &&
  typeof (r as { status: unknown }).status === 'number';

/**
 * Replaces globalThis.fetch with a handler that answers by method and path (without /api) and records
 * every call. Return a plain value for 200 JSON, or { status, body } for another status.
 */
export function mockFetch(handler: (call: FetchCall) => Reply) {
  const calls: FetchCall[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const call: FetchCall = {
      method: (init?.method ?? 'GET').toUpperCase(),
      path: url.pathname.replace(/^\/api/, ''),
      query: url.searchParams,
      body:
        typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body instanceof FormData ? init.body : undefined,
    };
    calls.push(call);
    const reply = handler(call);
    const { status, body } = isStatusReply(reply) ? reply : { status: 200, body: reply };
    return new Response(body === undefined ? '' : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  });
  globalThis.fetch = fn as typeof fetch;
  return { fn, calls };
}

let i18nStarted = false;

/** Each test's tables start with their default columns (the choice is remembered in localStorage). */
function forgetColumnChoices(): void {
  const storage = globalThis.localStorage;
  if (!storage) return;
  const keys = Array.from({ length: storage.length }, (_, i) => storage.key(i));
  for (const key of keys) if (key?.startsWith('table-columns:')) storage.removeItem(key);
}

/** Renders inside the app's providers and a memory router, texts in English, no retries. */
export function renderWithProviders(
  ui: ReactElement,
  { route = '/', keepColumnChoices = false }: { route?: string; keepColumnChoices?: boolean } = {},
) {
  if (!keepColumnChoices) forgetColumnChoices();
  if (!i18nStarted) {
    void initI18n({ remote: false });
    i18nStarted = true;
  }
  void i18n.changeLanguage('en');
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: 0 }, mutations: { retry: false } },
  });
  const result = render(
    <AppProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
    </AppProviders>,
  );
  return { ...result, queryClient };
}

/**
 * Opens the table's column chooser and shows every column hidden by default (a test that checks the spec's whole
 * set of columns), then closes it. Resolves once they are on screen.
 */
export async function showAllColumns(): Promise<void> {
  fireEvent.click(screen.getByRole('button', { name: 'Columns' }));
  const group = await screen.findByRole('group', { name: 'Columns', hidden: true });
  for (const box of within(group).getAllByRole('checkbox', { hidden: true }) as HTMLInputElement[])
    if (!box.checked) fireEvent.click(box);
  fireEvent.click(screen.getByRole('button', { name: 'Columns' }));
}
