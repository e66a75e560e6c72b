import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import { vi } from 'vitest';
import type { CurrentUserResponse, GatewayOptionDto, PricingPlanDto } from '@platform/domain';
import { AppProviders } from '../../app/providers.tsx';
import { brandingFixture, currentUserFixture } from '../../test/fixtures.ts';

/** One API call of a money screen test; `form` holds a multipart body. */
export interface MoneyCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  form: FormData | null;
}

type Reply = { status?: number; body: unknown } | undefined;

export const gatewayOption = (over: Partial<GatewayOptionDto> = {}): GatewayOptionDto => ({
  name: 'Bank',
  value: 'bank',
  group: 'manual',
  link: null,
  logo: null,
  custom_label: null,
  custom_value: null,
  fee: '0',
  ...over,
});

export const plan = (id: number, name: string, price: string, over: Partial<PricingPlanDto> = {}): PricingPlanDto => ({
  id,
  name,
  description: `${name} plan`,
  price,
  currency: 'USD',
  forex_leverage: 100,
  commodity_leverage: null,
  index_leverage: null,
  stock_leverage: null,
  crypto_leverage: null,
  forex_stopout: 50,
  commodity_stopout: null,
  index_stopout: null,
  stock_stopout: null,
  crypto_stopout: null,
  subscribers: 0,
  ...over,
});

export const PLANS = {
  data: [plan(1, 'Basic', '0'), plan(2, 'Silver', '250', { forex_leverage: null, forex_stopout: null })],
  meta: { total: 2, per_page: 100, page: 1 },
};
export const EMPTY_PAGE = { data: [], meta: { total: 0, per_page: 15, page: 1 } };

/** A customer whose active wallet is the real one (id 12, USD 5,000.00 with 250.00 on hold). */
export function realUser(over: Partial<CurrentUserResponse['user']> = {}, isKyc = true): CurrentUserResponse {
  const base = currentUserFixture();
  const real = base.user.balances.find((b) => b.mode === 'real')!;
  return { ...base, isKyc, activeBalance: real, user: { ...base.user, ...over } };
}

/**
 * Canned answers for the money screens: the current user, branding, countries, gateways, fees, empty histories and
 * two plans, then `extra` for the call under test. Unknown calls answer 404. Every call is recorded, multipart
 * bodies as FormData.
 */
export function mockMoneyApi(
  options: { user?: CurrentUserResponse; gateways?: GatewayOptionDto[]; pricingPlan?: 'on' | 'off' } = {},
  extra: (call: MoneyCall) => Reply = () => undefined,
) {
  const calls: MoneyCall[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const raw = init?.body;
    const call: MoneyCall = {
      method: (init?.method ?? 'GET').toUpperCase(),
      path: url.pathname.replace(/^\/api/, ''),
      query: url.searchParams,
      body: typeof raw === 'string' ? (JSON.parse(raw) as unknown) : undefined,
      form: raw instanceof FormData ? raw : null,
    };
    calls.push(call);
    const answer = extra(call) ?? standard(call, options) ?? { status: 404, body: { message: 'Not found.' } };
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fn);
  return { fn, calls, posted: (path: string) => calls.filter((c) => c.method !== 'GET' && c.path === path) };
}

function standard(
  { method, path }: MoneyCall,
  o: { user?: CurrentUserResponse; gateways?: GatewayOptionDto[]; pricingPlan?: 'on' | 'off' },
): Reply {
  if (method !== 'GET') return undefined;
  if (path === '/auth/user') return { body: o.user ?? realUser() };
  if (path === '/settings/branding') return { body: brandingFixture({ pricingPlan: o.pricingPlan ?? 'on' }) };
  if (path === '/countries') return { body: [{ name: { common: 'United Kingdom' } }, { name: { common: 'France' } }] };
  if (path === '/deposits/gateways') return { body: { data: o.gateways ?? [gatewayOption()] } };
  if (path === '/withdraws/fees') return { body: { percentage: '1.5', fixed: '2' } };
  if (path.endsWith('/history')) return { body: EMPTY_PAGE };
  if (path === '/dashboard/pricing') return { body: PLANS };
  return undefined;
}

/** Shows where the router is, for tests that follow a navigation. */
function Where() {
  const { pathname, search } = useLocation();
  return <div data-testid="location">{pathname + search}</div>;
}

/**
 * Renders `routes` (each element followed by the current location) plus a landing route for every other path, in the
 * app's providers and a memory router at `path`.
 */
export function renderMoneyRoutes(routes: Array<{ path: string; element: ReactElement }>, path: string) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: 0 }, mutations: { retry: false } },
  });
  const table: RouteObject[] = [
    ...routes.map((r) => ({
      path: r.path,
      element: (
        <>
          {r.element}
          <Where />
        </>
      ),
    })),
    { path: '*', element: <Where /> },
  ];
  const router = createMemoryRouter(table, { initialEntries: [path] });
  const result = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, queryClient, router };
}

/** Spies on window.location's assign and reload (happy-dom would otherwise try to load the page). */
export function stubLocation() {
  const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
  const reload = vi.spyOn(window.location, 'reload').mockImplementation(() => undefined);
  return { assign, reload };
}
