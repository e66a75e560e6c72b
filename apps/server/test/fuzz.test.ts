import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import type { RoleId } from '@platform/domain';
import { createTestApp, dbAgnosticElsewhere, DEMO, DEMO_PASSWORD, ROLE_EMAIL, type TestApp } from './helpers.ts';
import { users } from '../src/db/schema.ts';
import { createSession, SESSION_COOKIE } from '../src/modules/auth/sessions.ts';

/**
 * Malformed input to every operation of the OpenAPI document, as an anonymous caller, a customer and an admin:
 * whole-body garbage, then one field, query parameter or path parameter at a time replaced by a hostile value.
 * Whatever is sent, the answer is never a 5xx, and the server still works afterwards.
 */

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  default?: unknown;
}
interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  schema?: JsonSchema;
}
interface Operation {
  method: string;
  path: string;
  params: Parameter[];
  body: JsonSchema | null;
}

const nested = (depth: number, open: string, close: string) => open.repeat(depth) + close.repeat(depth);

/** Hostile values for one field or parameter. */
const HOSTILE: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  -0.5,
  1e13,
  1e308,
  -1e308,
  2 ** 53 + 1,
  'NaN',
  'Infinity',
  '-Infinity',
  '1e999',
  '9'.repeat(400),
  '',
  ' ',
  'x'.repeat(100_000),
  '\u0000',
  'a\u0000b',
  'a\ud800b',
  '\udfff',
  '%00',
  '../../etc/passwd',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  // Parsed, not literals: `{ __proto__: x }` in code sets the prototype and would be sent as `{}`.
  '2026-13-45',
  '-1',
  '0x10',
  {},
  [],
  [[[]]],
  JSON.parse('{"__proto__":{"admin":true}}'),
  JSON.parse('{"constructor":{"prototype":{"admin":true}}}'),
  JSON.parse(nested(2000, '[', ']')),
  { a: { b: { c: { d: 'x'.repeat(1000) } } } },
];

/** Bodies that are not what any operation takes (sent as raw JSON text). */
const RAW_BODIES: string[] = [
  '',
  '{',
  'null',
  '[]',
  '"text"',
  '1e999',
  'true',
  '{"a":',
  nested(10_000, '[', ']'),
  nested(10_000, '{"a":', '}').replace(/}$/, '1}'),
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  JSON.stringify({ x: 'y'.repeat(100_000) }),
  `{${Array.from({ length: 5000 }, (_, i) => `"k${i}":${i}`).join(',')}}`,
  '\u0000',
  '{"a":"\\u0000"}',
  '{"a":"\\ud800"}',
];

/** A small seeded generator (mulberry32): the same seed sends the same requests, so a failure reproduces. */
const SEED = Number(process.env.FUZZ_SEED) || 20261123;
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = seeded(SEED);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];

const CHARS = [
  'a',
  'Z',
  '0',
  '9',
  ' ',
  '.',
  '-',
  '\u0000',
  '\ud800',
  '\udfff',
  '😀',
  'é',
  '"',
  '\\',
  '%',
  '<',
  "'",
  '\n',
  '\u202e',
  '\ufeff',
];
const NUMBERS = [0, 1, -1, 0.5, 1e6, 1e9 + 1, 1e13, 1e21, 1e308, 2 ** 31, 2 ** 53, Number.MIN_VALUE];
const KEYS = ['a', 'id', '__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', ''];

/** Random garbage of any JSON type: odd text, extreme numbers, small nested arrays and objects with hostile keys. */
function garbage(depth = 0): unknown {
  switch (Math.floor(random() * (depth > 2 ? 4 : 6))) {
    case 0:
      return pick(HOSTILE);
    case 1:
      return Array.from({ length: Math.floor(random() ** 3 * 3000) }, () => pick(CHARS)).join('');
    case 2:
      return pick(NUMBERS) * pick([1, -1, random()]);
    case 3:
      return pick([null, true, false, '', '0', '1e999', 'NaN', '-0']);
    case 4:
      return Array.from({ length: Math.floor(random() * 4) }, () => garbage(depth + 1));
    default:
      // Object.fromEntries makes `__proto__` an own key, so it is really sent.
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 4) }, () => [pick(KEYS), garbage(depth + 1)]),
      );
  }
}
const RANDOM_PROBES = 4;

/**
 * Values that pass the rules a JSON schema cannot show (known country, adult birth date, strong password), so a
 * probe that changes one field reaches the handler and the database with everything else valid. The current
 * password is deliberately wrong, so no probe changes a demo account's password.
 */
let unique = 0;
const SAMPLES: Record<string, unknown> = {
  // Fresh each time, so creations get past "already exists" to the insert itself.
  email: () => `fuzz-${++unique}@example.test`,
  name: () => `FZ${++unique}_USD`,
  password: 'Fuzz12345!',
  passwordConfirmation: 'Fuzz12345!',
  currentPassword: 'not-the-password',
  newPassword: 'Fuzz12345!',
  fullName: 'Fuzz Tester',
  phone: '+44 20 7946 0000',
  birthDate: '1990-01-01',
  country: 'United Kingdom',
  city: 'London',
  address: '1 Street',
  postalCode: 'N1 1AA',
  currency: 'USD',
  token: 'x'.repeat(43),
  instrument: 'EUR_USD',
  symbol: 'EUR_USD',
  quote: 'JPY',
  amount: '1000',
  base: 'FZ',
  tradingview: 'FX',
  leverage: 100,
  label: 'Micro',
  value: 1000,
  search: 'demo',
};

/** A value the schema accepts, used for the fields not under test (ids far from any existing row). */
function plausible(schema: JsonSchema | undefined, name?: string): unknown {
  if (name !== undefined && name in SAMPLES && !schema?.enum && schema?.const === undefined) {
    const sample = SAMPLES[name];
    return typeof sample === 'function' ? sample() : sample;
  }
  if (!schema) return 'x';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const alt = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (alt?.length) return plausible(alt.find((s) => s.type !== 'null') ?? alt[0]);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      return schema.format === 'email' ? 'fuzz@example.test' : 'x';
    case 'integer':
    case 'number':
      return 999_999;
    case 'boolean':
      return true;
    case 'array':
      return [plausible(schema.items)];
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = plausible(schema.properties?.[key], key);
      return out;
    }
    default:
      return 'x';
  }
}

/** Operations of the OpenAPI document with their parameters and JSON body schema. */
function operationsOf(doc: {
  paths: Record<
    string,
    Record<string, { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>
  >;
}): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (path.startsWith('/api/docs')) continue;
    for (const [method, op] of Object.entries(methods)) {
      if (method === 'head') continue;
      ops.push({
        method: method.toUpperCase(),
        path,
        params: op.parameters ?? [],
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
      });
    }
  }
  return ops;
}

/** Percent-encoded as a client would send it; a lone surrogate becomes its three (invalid UTF-8) bytes. */
function encodeAny(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return Array.from(s, (ch) => {
      try {
        return encodeURIComponent(ch);
      } catch {
        const c = ch.charCodeAt(0);
        return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63)]
          .map((b) => `%${b.toString(16).toUpperCase()}`)
          .join('');
      }
    }).join('');
  }
}

const asQueryValue = (v: unknown): string => encodeAny(typeof v === 'string' ? v : (JSON.stringify(v) ?? 'undefined'));

interface Probe {
  variant: string;
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body?: unknown;
  raw?: string;
}

/** Every malformed request of one operation: plausible values everywhere but one place. */
function* probes(op: Operation, full: boolean): Generator<Probe> {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  const basePath = Object.fromEntries(pathParams.map((p) => [p.name, plausible(p.schema, p.name)]));
  const baseQuery = Object.fromEntries(queryParams.map((p) => [p.name, plausible(p.schema, p.name)]));
  // A new plausible body per probe: its unique samples (emails, names) must not collide with the last probe's.
  const baseBody = () => (op.body ? plausible(op.body) : undefined);
  if (op.body)
    for (const raw of RAW_BODIES)
      yield { variant: `raw body ${JSON.stringify(raw.slice(0, 30))}`, path: basePath, query: baseQuery, raw };
  if (!full) return;
  // The plausible body with an own `__proto__` or `constructor` key beside its fields.
  if (op.body?.type === 'object')
    for (const key of ['__proto__', 'constructor'])
      yield {
        variant: `body with own ${key} key`,
        path: basePath,
        query: baseQuery,
        raw: JSON.stringify(
          Object.fromEntries([
            ...Object.entries(baseBody() as object),
            [key, { prototype: { admin: true }, admin: true, roleId: 1 }],
          ]),
        ),
      };
  // Seeded random garbage in about half of the places at once.
  for (let i = 0; i < RANDOM_PROBES; i++) {
    const half = <T>(base: Record<string, T>) =>
      Object.fromEntries(Object.entries(base).map(([k, v]) => [k, random() < 0.5 ? garbage() : v]));
    // Every property, optional ones too, plausible before half of them are replaced.
    const everyField = () => ({
      ...Object.fromEntries(Object.entries(op.body?.properties ?? {}).map(([k, s]) => [k, plausible(s, k)])),
      ...(baseBody() as object),
    });
    const body = !op.body ? undefined : op.body.type !== 'object' || random() < 0.25 ? garbage() : half(everyField());
    yield { variant: `random #${i} (seed ${SEED})`, path: half(basePath), query: half(baseQuery), body };
  }
  for (const [i, value] of HOSTILE.entries()) {
    for (const p of pathParams)
      yield {
        variant: `path ${p.name} #${i}`,
        path: { ...basePath, [p.name]: value },
        query: baseQuery,
        body: baseBody(),
      };
    for (const p of queryParams)
      yield {
        variant: `query ${p.name} #${i}`,
        path: basePath,
        query: { ...baseQuery, [p.name]: value },
        body: baseBody(),
      };
    if (op.body) {
      yield { variant: `body #${i}`, path: basePath, query: baseQuery, body: value };
      for (const key of Object.keys(op.body.properties ?? {}))
        yield {
          variant: `body.${key} #${i}`,
          path: basePath,
          query: baseQuery,
          body: { ...(baseBody() as object), [key]: value },
        };
    }
  }
}

function urlOf(op: Operation, probe: Probe): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => asQueryValue(probe.path[name]));
  const query = Object.entries(probe.query)
    .map(([k, v]) => `${k}=${asQueryValue(v)}`)
    .join('&');
  return query ? `${path}?${query}` : path;
}

type Caller = 'anonymous' | 'customer' | 'admin';
const ROLE_OF: Record<Exclude<Caller, 'anonymous'>, RoleId> = { customer: 3, admin: 1 };

let t: TestApp;
const userIds = new Map<RoleId, number>();
const cookies = new Map<Caller, string | undefined>();

async function freshCookie(caller: Caller): Promise<string | undefined> {
  if (caller === 'anonymous') return undefined;
  const { token } = await createSession(t.ctx.db, {
    userId: userIds.get(ROLE_OF[caller])!,
    remember: false,
    ip: '127.0.0.1',
  });
  return `${SESSION_COOKIE}=${token}`;
}

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.ctx.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.email, [ROLE_EMAIL[1], ROLE_EMAIL[3]]));
  for (const role of [1, 3] as const) userIds.set(role, rows.find((r) => r.email === ROLE_EMAIL[role])!.id);
  for (const caller of ['anonymous', 'customer', 'admin'] as const) cookies.set(caller, await freshCookie(caller));
});
afterAll(async () => t.close());

describe.skipIf(dbAgnosticElsewhere)('fuzzing every operation', () => {
  // About 45,000 requests over every operation: minutes on PGlite or on a loaded machine.
  it('never answers 5xx, whoever sends whatever', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const ops = operationsOf(doc);
    expect(ops.length).toBeGreaterThan(40);
    const failures: string[] = [];
    const statuses = new Map<string, number>();
    let sent = 0;
    for (const caller of ['anonymous', 'customer', 'admin'] as const) {
      for (const op of ops) {
        // A new session per operation: a probe of the last one may have ended the previous (sign-out, "Login as").
        cookies.set(caller, await freshCookie(caller));
        // Whether this caller gets past the route's guard: if not, only the whole-body garbage is worth sending
        // (the guard answers before the body is read, so field-by-field probes would all get the same 401/403).
        const gate = await t.app.inject({
          method: op.method as 'GET',
          url: urlOf(op, { variant: '', path: {}, query: {} }).replace(/undefined/g, '1'),
          headers: { cookie: cookies.get(caller) ?? '' },
        });
        const full = gate.statusCode !== 401 && gate.statusCode !== 403;
        for (const probe of probes(op, full)) {
          const url = urlOf(op, probe);
          const send = async () =>
            t.app.inject({
              method: op.method as 'GET',
              url,
              // One address per request: the per-IP request limits of public endpoints would otherwise answer 429 early.
              remoteAddress: `10.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}`,
              headers: {
                cookie: cookies.get(caller) ?? '',
                ...(probe.raw !== undefined || probe.body !== undefined ? { 'content-type': 'application/json' } : {}),
              },
              ...(probe.raw !== undefined
                ? { payload: probe.raw }
                : probe.body !== undefined
                  ? { payload: JSON.stringify(probe.body) }
                  : {}),
            });
          let res = await send();
          sent++;
          // A probe that ended the session (sign-out, "Login as") must not turn the rest into anonymous calls.
          if (res.statusCode === 401 && caller !== 'anonymous' && full) {
            cookies.set(caller, await freshCookie(caller));
            res = await send();
          }
          const bucket = `${caller} ${res.statusCode}`;
          statuses.set(bucket, (statuses.get(bucket) ?? 0) + 1);
          if (res.statusCode >= 500)
            failures.push(
              `${op.method} ${url.slice(0, 120)} as ${caller} (${probe.variant}): ${res.statusCode} ${res.body.slice(0, 160)}`,
            );
        }
      }
    }
    console.log(
      `fuzz: ${sent} requests to ${ops.length} operations; answers: ${[...statuses].map(([k, n]) => `${k}×${n}`).join(', ')}`,
    );
    expect(sent).toBeGreaterThan(3000);
    expect(failures, `seed ${SEED} (FUZZ_SEED=${SEED} to repeat)`).toEqual([]);
  }, 600_000);

  it('still serves everyone afterwards', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/settings/branding' })).statusCode).toBe(200);
    // Wrong confirmations (POST /auth/confirm) lock an account as wrong sign-ins do; staff lift such a lock.
    for (const email of [DEMO.admin, DEMO.client]) await t.ctx.signInLimits.clearAccount(email);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: DEMO.admin, password: DEMO_PASSWORD },
      remoteAddress: '192.0.2.200',
    });
    expect(login.statusCode).toBe(200);
    const cookie = String(login.headers['set-cookie']).split(';')[0];
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/users/api', headers: { cookie } })).statusCode).toBe(
      200,
    );
    const client = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: DEMO.client, password: DEMO_PASSWORD },
      remoteAddress: '192.0.2.201',
    });
    expect(client.statusCode).toBe(200);
  });
});
