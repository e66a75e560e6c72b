import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, signIn, type TestApp } from '../../../test/helpers.ts';
import { markDraining } from './service.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN });
});
afterAll(() => t.close());

describe('health and metrics', () => {
  it('/healthz says the process is alive, without a session or an Origin', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('/readyz checks the database and that every shipped migration is applied', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ready: true, checks: { database: 'ok', migrations: 'ok', shutdown: 'no' } });
  });

  it('/metrics needs the bearer token and then serves Prometheus text with the product figures', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer wrong' } })).statusCode,
    ).toBe(401);
    const client = await signIn(t.app, DEMO.client);
    await t.app.inject({ method: 'GET', url: '/api/dashboard/orders', headers: { cookie: client } });
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    for (const name of [
      'nodejs_eventloop_lag_p99_seconds',
      'process_cpu_seconds_total',
      'orders_placed_total',
      'orders_closed_total',
      'price_ticks_total',
      'realtime_connected_clients',
      'risk_engine_positions',
    ])
      expect(res.body, name).toContain(name);
    // Routes are labelled by their pattern, never by a raw URL.
    expect(res.body).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/dashboard\/orders",status="200"\} [1-9]/,
    );
  });

  it('serves the same metrics to admins only at /api/admin/metrics', async () => {
    const admin = await signIn(t.app, DEMO.admin);
    const ok = await t.app.inject({ method: 'GET', url: '/api/admin/metrics', headers: { cookie: admin } });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('orders_placed_total');
    const manager = await signIn(t.app, DEMO.manager);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/metrics', headers: { cookie: manager } })).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/metrics' })).statusCode).toBe(401);
  });

  it('/readyz turns 503 once the process starts shutting down, while /healthz stays 200', async () => {
    markDraining();
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json().checks.shutdown).toBe('draining');
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});

describe('metrics without a token', () => {
  it('keeps /metrics closed and says how to open it', async () => {
    const plain = await createTestApp();
    try {
      const res = await plain.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toMatch(/METRICS_TOKEN/);
    } finally {
      await plain.close();
    }
  });
});
