import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, isNotNull, isNull, ne } from 'drizzle-orm';
import { ALL_ROLES, statusToUrl, type RoleId } from '@platform/domain';
import { createTestApp, ROLE_EMAIL, signIn, type TestApp } from './helpers.ts';
import type { RouteAccess } from '../src/lib/http.ts';
import {
  deposits,
  kycDocuments,
  leadImports,
  leads,
  mailOutbox,
  salesStatuses,
  storedFiles,
  users,
} from '../src/db/schema.ts';

/**
 * The product as a newcomer starts it: the demo accounts AND a month of demo activity (customers, deposits,
 * withdrawals, trades, KYC documents, leads). Every role signs in as the README says and opens every GET route it may
 * use, lists and details, with real ids from the data: no answer may be a server error. The other suites run without
 * demo activity, which is how a seeded row that no response schema accepts once reached /admin/kyc as a 500.
 */

interface ApiParam {
  name: string;
  in: string;
  schema?: { enum?: string[] };
}

let t: TestApp;
/** Path of each GET route (Fastify form, /:id) with the OpenAPI parameters of its path. */
const getRoutes: { url: string; access: RouteAccess; params: ApiParam[] }[] = [];
const cookies = new Map<RoleId, string>();
const idOf = new Map<RoleId, number>();
/** Real values for each path parameter, by role (some ids only mean something to their owner). */
let valuesFor: (role: RoleId, route: string, param: string) => string[];

const toOpenApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApp({ DEMO_ACTIVITY: 'true' });
  const db = t.ctx.db;
  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
    paths: Record<string, Record<string, { parameters?: ApiParam[] }>>;
  };
  for (const r of t.app.registeredRoutes) {
    if (r.method !== 'GET' || !r.url.startsWith('/api/') || r.url.startsWith('/api/docs') || r.access === undefined)
      continue;
    const params = (doc.paths[toOpenApiPath(r.url)]?.get?.parameters ?? []).filter((p) => p.in === 'path');
    getRoutes.push({ url: r.url, access: r.access, params });
  }
  for (const role of ALL_ROLES) {
    cookies.set(role, await signIn(t.app, ROLE_EMAIL[role]));
    const [u] = await db.select({ id: users.id }).from(users).where(eq(users.email, ROLE_EMAIL[role]));
    idOf.set(role, u.id);
  }
  const client = idOf.get(3)!;
  const [activityCustomer] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.roleId, 3), ne(users.id, client)))
    .orderBy(desc(users.id))
    .limit(1);
  const clientDeposit = await db
    .select({ id: deposits.id, reference: deposits.reference })
    .from(deposits)
    .where(eq(deposits.userId, client))
    .limit(1);
  const [otherDeposit] = await db
    .select({ id: deposits.id })
    .from(deposits)
    .where(ne(deposits.userId, client))
    .limit(1);
  const [mail] = await db.select({ id: mailOutbox.id }).from(mailOutbox).limit(1);
  const files = await db.select({ id: storedFiles.id }).from(storedFiles).limit(2);
  const [leadImport] = await db.select({ id: leadImports.id }).from(leadImports).limit(1);
  const statuses = await db.select({ status: salesStatuses.status }).from(salesStatuses);
  // A lead each agent works, one an affiliate brought, and any other.
  const leadIds = new Set<number>();
  for (const cond of [eq(leads.agentId, idOf.get(5)!), eq(leads.retId, idOf.get(6)!), isNotNull(leads.userId)]) {
    const [l] = await db
      .select({ id: leads.id })
      .from(leads)
      .where(and(cond, isNull(leads.deletedAt)))
      .limit(1);
    if (l) leadIds.add(l.id);
  }
  const [anyLead] = await db.select({ id: leads.id }).from(leads).limit(1);
  if (anyLead) leadIds.add(anyLead.id);
  const today = Date.now();
  const customers = [client, activityCustomer?.id].filter((x) => x !== undefined).map(String);
  const staff = [idOf.get(2)!, idOf.get(5)!, idOf.get(4)!].map(String);

  valuesFor = (role, route, param) => {
    switch (param) {
      case 'id':
        if (route.startsWith('/api/admin/users/')) return [...staff, String(client)];
        if (route.startsWith('/api/admin/share/users/')) return [...customers, ...staff];
        if (route === '/api/admin/mail/:id') return mail ? [String(mail.id)] : ['1'];
        if (route === '/api/files/:id') return files.length ? files.map((f) => f.id) : ['missing'];
        if (route === '/api/deposits/:id')
          return [...clientDeposit.map((d) => String(d.id)), ...(otherDeposit ? [String(otherDeposit.id)] : [])];
        if (route === '/api/admin/leads/csv/:id') return [String(leadImport?.id ?? 1)];
        if (route === '/api/admin/leads/:id/history') return [...leadIds].map(String);
        return ['1'];
      case 'userId':
      case 'customerId':
        return customers;
      case 'roleId':
        return ALL_ROLES.map(String);
      case 'status':
        // A filter over the same rows: every row through 'All', and the filtered path once.
        return ['All', ...statuses.slice(0, 1).map((s) => statusToUrl(s.status))];
      case 'startDate':
        return [day(today - 40 * 86_400_000)];
      case 'endDate':
        return [day(today)];
      case 'tx_ref':
        return clientDeposit.length ? [clientDeposit[0].reference] : ['missing-ref'];
      case 'lng':
      case 'code':
        return ['en', 'fr'];
      default:
        throw new Error(`no values for :${param} of ${route} (as role ${role}): add them to this test`);
    }
  };
}, 180_000);
afterAll(async () => t?.close());

const mayCall = (access: RouteAccess, role: RoleId) =>
  access === 'public' || access === 'user' || access.includes(role);

/** Every concrete url of a route: each enum value of the OpenAPI schema, or each real value the test knows. */
function urlsOf(role: RoleId, route: (typeof getRoutes)[number]): string[] {
  let urls = [route.url];
  for (const name of route.url.match(/:(\w+)/g)?.map((p) => p.slice(1)) ?? []) {
    const values = route.params.find((p) => p.name === name)?.schema?.enum ?? valuesFor(role, route.url, name);
    urls = urls.flatMap((u) => values.map((v) => u.replace(`:${name}`, encodeURIComponent(v))));
  }
  return urls;
}

describe('the product on the full demo data', () => {
  it('finds the demo activity and its KYC documents', async () => {
    const docs = await t.ctx.db.select({ type: kycDocuments.type }).from(kycDocuments);
    expect(docs.length).toBeGreaterThan(10);
    expect(getRoutes.length).toBeGreaterThan(50);
  });

  it('refuses a KYC document type outside the three the product offers', async () => {
    await expect(
      t.ctx.db.insert(kycDocuments).values({ userId: idOf.get(3)!, type: 'id_card', status: 'pending' }),
    ).rejects.toThrow();
  });

  it('answers every GET list and detail of every role without a server error, on every page', async () => {
    const failures: string[] = [];
    let calls = 0;
    for (const role of ALL_ROLES) {
      const cookie = cookies.get(role)!;
      for (const route of getRoutes.filter((r) => mayCall(r.access, role))) {
        for (const url of urlsOf(role, route)) {
          const get = async (query: string) => {
            calls++;
            const res = await t.app.inject({ method: 'GET', url: `${url}${query}`, headers: { cookie } });
            if (res.statusCode >= 500)
              failures.push(`GET ${url}${query} as role ${role}: ${res.statusCode} ${res.body.slice(0, 160)}`);
            return res;
          };
          const first = await get('');
          // A paged list: every page of it at the largest page size, so a bad row anywhere shows.
          const isJson = String(first.headers['content-type']).startsWith('application/json');
          const meta =
            first.statusCode === 200 && isJson ? (first.json() as { meta?: { total?: number } }).meta : undefined;
          if (meta?.total === undefined) continue;
          const sep = url.includes('?') ? '&' : '?';
          for (let page = 1; page <= Math.min(Math.ceil(meta.total / 100), 30); page++)
            await get(`${sep}limit=100&page=${page}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(calls).toBeGreaterThan(200);
  }, 180_000);
});
