import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, like, sql } from 'drizzle-orm';
import { type AlertDto, MAX_ACTIVE_ALERTS, dec } from '@platform/domain';
import { createTestApp, DEMO, newVerifiedCustomer, signIn, type TestApp } from '../../../test/helpers.ts';
import { mailOutbox, notifications, priceAlerts, users } from '../../db/schema.ts';
import { alertMailKey, fireAlerts, queueMissedAlertMail } from './fire.ts';
import { AlertWatcher, entryOf } from './watch.ts';

let t: TestApp;
let admin: string;
let manager: string;
let client: string;
let clientId: number;
let other: string;
let otherId: number;
let watcher: AlertWatcher;
let emitted: Array<{ userId: number; event: string; payload: unknown }>;

const EUR = 'EUR_USD';
const DIGITS = 5;
const px = (v: number | string) => dec(v).toFixed(DIGITS);

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie: string, payload?: object) =>
  t.app.inject({ method, url: `/api/dashboard/alerts${url}`, headers: { cookie }, payload });
const create = async (body: object, cookie = client) => {
  const res = await api('POST', '', cookie, { instrument: EUR, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { alert: AlertDto }).alert;
};
const list = async (cookie = client) => {
  const res = await api('GET', '', cookie);
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: AlertDto[] }).data;
};
const byId = async (id: number) => (await list()).find((a) => a.id === id);
/** Sets the next quote through the simulator, then waits for the fires (and their mail) to settle. */
const quote = async (bid: string, ask: string, instrument = EUR) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/simulator/price',
    headers: { cookie: admin },
    payload: { instrument, bid, ask },
  });
  expect(res.statusCode, res.body).toBe(200);
  await watcher.idle();
  await t.ctx.jobs.idle();
};
const fireOne = async (e: ReturnType<typeof entryOf>, q: { bid: number; ask: number }) =>
  (await fireAlerts(t.ctx, [e], q, DIGITS))[0] ?? null;
const alertNotices = async (userId: number) =>
  t.ctx.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), like(notifications.title, 'Price alert:%')));
const mailsFor = async (id: number) =>
  t.ctx.db
    .select()
    .from(mailOutbox)
    .where(like(mailOutbox.jobId, `price-alert:${id}:%`));

beforeAll(async () => {
  // No walk of the simulated feed: prices move only when a test sets them.
  t = await createTestApp({ MARKET_FEED: 'false' });
  watcher = t.ctx.alerts as AlertWatcher;
  admin = await signIn(t.app, DEMO.admin);
  manager = await signIn(t.app, DEMO.manager);
  client = await signIn(t.app, DEMO.client);
  [{ id: clientId }] = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO.client));
  const o = await newVerifiedCustomer(t, 'alerts');
  otherId = o.id;
  other = await signIn(t.app, o.email, o.password);
  emitted = [];
  const toUser = t.ctx.realtime.toUser.bind(t.ctx.realtime);
  vi.spyOn(t.ctx.realtime, 'toUser').mockImplementation((userId, event, payload) => {
    emitted.push({ userId, event, payload });
    toUser(userId, event, payload);
  });
  await quote('1.10000', '1.10020');
});
afterAll(() => t.close());

describe('who may use price alerts', () => {
  it('refuses staff and affiliates with 403 on every call', async () => {
    for (const email of [DEMO.admin, DEMO.manager, DEMO.affiliate, DEMO.agent]) {
      const cookie = email === DEMO.admin ? admin : email === DEMO.manager ? manager : await signIn(t.app, email);
      expect((await api('GET', '', cookie)).statusCode).toBe(403);
      expect(
        (await api('POST', '', cookie, { instrument: EUR, side: 'bid', condition: 'above', price: '2' })).statusCode,
      ).toBe(403);
      expect(
        (await api('PUT', '/1', cookie, { instrument: EUR, side: 'bid', condition: 'above', price: '2' })).statusCode,
      ).toBe(403);
      expect((await api('DELETE', '/1', cookie)).statusCode).toBe(403);
    }
  });

  it('refuses a caller who is not signed in with 401', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/dashboard/alerts' })).statusCode).toBe(401);
  });
});

describe('bad input', () => {
  const refuse = async (body: object, field: string, message?: RegExp) => {
    const res = await api('POST', '', client, body);
    expect(res.statusCode, res.body).toBe(400);
    const json = res.json() as { message: string; errors?: Record<string, string> };
    expect(json.message).toBeTruthy();
    expect(Object.keys(json.errors ?? {})).toContain(field);
    if (message) expect(json.message).toMatch(message);
  };

  it('answers 400 with a message and stores nothing', async () => {
    const before = (await list()).length;
    const ok = { instrument: EUR, side: 'bid', condition: 'above', price: '1.5' };
    await refuse({ ...ok, side: 'mid' }, 'side');
    await refuse({ ...ok, condition: 'crosses' }, 'condition');
    await refuse({ ...ok, price: '-1' }, 'price');
    await refuse({ ...ok, price: '0' }, 'price');
    await refuse({ ...ok, price: 'abc' }, 'price');
    await refuse({ ...ok, price: '1e9999' }, 'price');
    await refuse({ ...ok, price: '2000000000' }, 'price');
    await refuse({ ...ok, instrument: '' }, 'instrument');
    await refuse({ ...ok, instrument: 'x'.repeat(41) }, 'instrument');
    await refuse({ ...ok, instrument: 'NOPE_USD' }, 'instrument', /Unknown instrument NOPE_USD/);
    await refuse({ ...ok, price: '1.500001' }, 'price', /at most/);
    await refuse({ ...ok, email: 'yes' }, 'email');
    // Already met by the current price: above a level under the bid, below a level over the ask.
    await refuse({ ...ok, price: '1.09990' }, 'price', /already 1\.10000/);
    await refuse({ ...ok, side: 'ask', condition: 'below', price: '1.10030' }, 'price', /already 1\.10020/);
    expect((await list()).length).toBe(before);
  });

  it('refuses an id that is not a positive integer', async () => {
    expect((await api('DELETE', '/abc', client)).statusCode).toBe(400);
    expect((await api('DELETE', '/0', client)).statusCode).toBe(400);
  });
});

describe('create, list, edit, delete', () => {
  it('creates an alert, lists it as active and holds it in the watcher', async () => {
    const a = await create({ side: 'ask', condition: 'below', price: '0.9', email: true });
    expect(a).toMatchObject({ instrument: EUR, side: 'ask', condition: 'below', price: '0.9', email: true });
    expect(a).toMatchObject({ status: 'active', fired_at: null, fired_price: null });
    expect(await byId(a.id)).toEqual(a);
    expect(watcher.book.get(a.id)).toMatchObject({ side: 'ask', condition: 'below', price: 0.9 });
    expect(emitted).toContainEqual({
      userId: clientId,
      event: 'alertsChanged',
      payload: { alertId: a.id, fired: false },
    });
    // The instrument may be written as the client reads it.
    const b = await create({ instrument: 'EUR/USD', side: 'bid', condition: 'above', price: '1.3' });
    expect(b.instrument).toBe(EUR);
    expect(b.email).toBe(false);
  });

  it("hides another client's alerts: not listed, and 404 on edit and delete", async () => {
    const mine = await create({ side: 'bid', condition: 'above', price: '1.4' });
    expect((await list(other)).map((a) => a.id)).not.toContain(mine.id);
    const body = { instrument: EUR, side: 'bid', condition: 'above', price: '1.45' };
    const put = await api('PUT', `/${mine.id}`, other, body);
    expect(put.statusCode).toBe(404);
    expect(put.json()).toMatchObject({ message: 'Alert not found.' });
    expect((await api('DELETE', `/${mine.id}`, other)).statusCode).toBe(404);
    expect((await api('PUT', '/2147483647', client, body)).statusCode).toBe(404);
    expect((await byId(mine.id))?.price).toBe('1.4');
  });

  it('edits an active alert in place and moves it in the watcher', async () => {
    const a = await create({ side: 'bid', condition: 'above', price: '1.2' });
    const res = await api('PUT', `/${a.id}`, client, {
      instrument: EUR,
      side: 'ask',
      condition: 'below',
      price: '1.05',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: expect.any(String), alert: { id: a.id, side: 'ask', price: '1.05' } });
    expect(watcher.book.get(a.id)).toMatchObject({ side: 'ask', condition: 'below', price: 1.05 });
  });

  it('deletes for real: the row and the watcher entry go, a second delete is 404', async () => {
    const a = await create({ side: 'bid', condition: 'below', price: '1.01' });
    const res = await api('DELETE', `/${a.id}`, client);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: expect.any(String) });
    expect(await t.ctx.db.select().from(priceAlerts).where(eq(priceAlerts.id, a.id))).toEqual([]);
    expect(watcher.book.get(a.id)).toBeUndefined();
    expect((await api('DELETE', `/${a.id}`, client)).statusCode).toBe(404);
  });
});

describe('firing', () => {
  it('fires once when the bid reaches the level, with notification, event and mail; not on the other side or direction', async () => {
    await quote('1.10000', '1.10020');
    const up = await create({ side: 'bid', condition: 'above', price: '1.10500', email: true });
    const askUp = await create({ side: 'ask', condition: 'above', price: '1.10600' });
    const down = await create({ side: 'bid', condition: 'below', price: '1.09000', email: true });
    const noticesBefore = (await alertNotices(clientId)).length;
    emitted.length = 0;

    await quote('1.10400', '1.10550'); // the ask passes 1.10500 but the alert is on the bid
    expect((await byId(up.id))?.status).toBe('active');
    await quote('1.10500', '1.10520'); // the bid reaches it exactly
    const fired = await byId(up.id);
    expect(fired).toMatchObject({ status: 'fired', fired_price: '1.105' });
    expect(fired?.fired_at).toBeTruthy();
    expect((await byId(askUp.id))?.status).toBe('active');
    expect((await byId(down.id))?.status).toBe('active');

    const notices = await alertNotices(clientId);
    expect(notices.length).toBe(noticesBefore + 1);
    expect(notices.at(-1)).toMatchObject({ title: 'Price alert: EUR/USD', url: '/dashboard' });
    expect(notices.at(-1)?.description).toContain('Bid rose to 1.10500');
    expect(emitted).toContainEqual({
      userId: clientId,
      event: 'alertsChanged',
      payload: { alertId: up.id, fired: true },
    });
    expect(
      emitted.some(
        (e) => e.event === `user:${clientId}` && (e.payload as { title: string }).title === 'Price alert: EUR/USD',
      ),
    ).toBe(true);

    const mails = await mailsFor(up.id);
    expect(mails.length).toBe(1);
    expect(mails[0]).toMatchObject({ to: DEMO.client });
    expect(mails[0].subject).toContain('EUR/USD bid above 1.105');
    expect(mails[0].text).toContain('rose to 1.105');

    // Further crossings, and back and forth, fire nothing more.
    await quote('1.10000', '1.10020');
    await quote('1.10800', '1.10820');
    await quote('1.11000', '1.11020');
    expect((await alertNotices(clientId)).length).toBe(noticesBefore + 2); // askUp fired on 1.10820
    expect(await byId(askUp.id)).toMatchObject({ status: 'fired', fired_price: '1.1082' });
    expect((await mailsFor(up.id)).length).toBe(1);
    expect(await mailsFor(askUp.id)).toEqual([]); // no email asked
    expect((await byId(up.id))?.fired_at).toBe(fired?.fired_at);
    expect((await byId(down.id))?.status).toBe('active');
    expect(watcher.book.get(up.id)).toBeUndefined();
  });

  it('fires every alert one tick crosses, each for its owner, in one go', async () => {
    await quote('1.10000', '1.10020');
    const mine = await create({ side: 'bid', condition: 'below', price: '1.09900' });
    const mine2 = await create({ side: 'ask', condition: 'below', price: '1.09950' });
    const theirs = await create({ side: 'bid', condition: 'below', price: '1.09850' }, other);
    const untouched = await create({ side: 'bid', condition: 'below', price: '1.09000' }, other);
    const [mineBefore, theirsBefore] = [(await alertNotices(clientId)).length, (await alertNotices(otherId)).length];
    await quote('1.09800', '1.09820');
    expect((await byId(mine.id))?.status).toBe('fired');
    expect((await byId(mine2.id))?.fired_price).toBe('1.0982');
    const theirList = await list(other);
    expect(theirList.find((a) => a.id === theirs.id)?.status).toBe('fired');
    expect(theirList.find((a) => a.id === untouched.id)?.status).toBe('active');
    expect((await alertNotices(clientId)).length).toBe(mineBefore + 2);
    expect((await alertNotices(otherId)).length).toBe(theirsBefore + 1);
    await api('DELETE', `/${untouched.id}`, other);
  });

  it('fires at the first price after a gap, and reports that price', async () => {
    await quote('1.10000', '1.10020');
    const down = await create({ side: 'ask', condition: 'below', price: '1.09500' });
    await quote('1.08000', '1.08010');
    expect(await byId(down.id)).toMatchObject({ status: 'fired', fired_price: '1.0801' });
  });

  it('re-arms a fired alert when edited, which then fires once more with its own mail', async () => {
    await quote('1.10000', '1.10020');
    const a = await create({ side: 'bid', condition: 'above', price: '1.10100', email: true });
    await quote('1.10100', '1.10120');
    const first = await byId(a.id);
    expect(first?.status).toBe('fired');
    const res = await api('PUT', `/${a.id}`, client, {
      instrument: EUR,
      side: 'bid',
      condition: 'above',
      price: '1.10300',
      email: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      alert: { status: 'active', fired_at: null, fired_price: null, price: '1.103' },
    });
    expect(watcher.book.get(a.id)).toBeDefined();
    await quote('1.10300', '1.10320');
    const second = await byId(a.id);
    expect(second?.status).toBe('fired');
    expect(second?.fired_at).not.toBe(first?.fired_at);
    expect((await mailsFor(a.id)).length).toBe(2);
  });

  it('never fires an alert twice under the conditional update, even from a stale book', async () => {
    await quote('1.10000', '1.10020');
    const a = await create({ side: 'bid', condition: 'above', price: '1.10200' });
    const [row] = await t.ctx.db.select().from(priceAlerts).where(eq(priceAlerts.id, a.id));
    const entry = entryOf(row);
    // Not met by the quote given: nothing happens.
    expect(await fireOne(entry, { bid: 1.1015, ask: 1.1017 })).toBeNull();
    const hits = await Promise.all([
      fireOne(entry, { bid: 1.1021, ask: 1.1023 }),
      fireOne(entry, { bid: 1.1022, ask: 1.1024 }),
    ]);
    expect(hits.filter(Boolean).length).toBe(1);
    expect(await fireOne(entry, { bid: 1.103, ask: 1.1032 })).toBeNull();
    const notices = (await alertNotices(clientId)).filter((n) => n.description?.includes('above 1.10200'));
    expect(notices.length).toBe(1);
    watcher.removed(a.id);
  });

  it('fires an edited definition only: a stale entry whose level moved away fires nothing', async () => {
    await quote('1.10000', '1.10020');
    const a = await create({ side: 'bid', condition: 'above', price: '1.10200' });
    const [row] = await t.ctx.db.select().from(priceAlerts).where(eq(priceAlerts.id, a.id));
    const stale = entryOf(row);
    await api('PUT', `/${a.id}`, client, { instrument: EUR, side: 'bid', condition: 'above', price: '1.12000' });
    expect(await fireOne(stale, { bid: 1.1025, ask: 1.1027 })).toBeNull();
    expect((await byId(a.id))?.status).toBe('active');
  });

  it('two instances that both believe they lead fire an alert once', async () => {
    await quote('1.10000', '1.10020');
    const second = new AlertWatcher(() => t.ctx);
    await second.start();
    try {
      const a = await create({ side: 'bid', condition: 'below', price: '1.09700', email: true });
      second.changed((await t.ctx.db.select().from(priceAlerts).where(eq(priceAlerts.id, a.id)))[0]);
      expect(second.book.get(a.id)).toBeDefined();
      await quote('1.09600', '1.09620');
      await second.idle();
      await t.ctx.jobs.idle();
      expect(await byId(a.id)).toMatchObject({ status: 'fired', fired_price: '1.096' });
      const notices = (await alertNotices(clientId)).filter((n) => n.description?.includes('below 1.09700'));
      expect(notices.length).toBe(1);
      expect((await mailsFor(a.id)).length).toBe(1);
      expect(second.book.get(a.id)).toBeUndefined();
    } finally {
      await second.stop();
    }
  });

  it('a restart loads the active alerts only, and queues mail a crash left unqueued once', async () => {
    await quote('1.10000', '1.10020');
    const active = await create({ side: 'ask', condition: 'above', price: '1.20000' });
    const fired = (await list()).find((a) => a.status === 'fired')!;
    const restarted = new AlertWatcher(() => t.ctx);
    await restarted.start();
    try {
      expect(restarted.book.get(active.id)).toBeDefined();
      expect(restarted.book.get(fired.id)).toBeUndefined();
      expect(restarted.book.size).toBe(watcher.book.size);
    } finally {
      await restarted.stop();
    }

    // A fire committed whose mail job never got queued (the instance stopped in between).
    const [row] = await t.ctx.db
      .update(priceAlerts)
      .set({ firedAt: sql`date_trunc('milliseconds', now())`, firedPrice: '1.2', email: true })
      .where(eq(priceAlerts.id, active.id))
      .returning();
    watcher.removed(active.id);
    expect(await mailsFor(active.id)).toEqual([]);
    expect(await queueMissedAlertMail(t.ctx)).toBe(1);
    await t.ctx.jobs.idle();
    const mails = await mailsFor(active.id);
    expect(mails.map((m) => m.jobId)).toEqual([alertMailKey(active.id, row.firedAt!)]);
    expect(await queueMissedAlertMail(t.ctx)).toBe(0);
  });

  it("does not fire on another instrument's ticks, nor while its market is closed", async () => {
    await quote('1.10000', '1.10020');
    const a = await create({ side: 'bid', condition: 'above', price: '1.10900' });
    const gbp = t.ctx.market.book.get('GBP_USD')!;
    const up = (v: number) => dec(v).plus('0.001').toFixed(5);
    await quote(up(gbp.bid), up(gbp.ask), 'GBP_USD');
    expect((await byId(a.id))?.status).toBe('active');
    const isOpen = vi.spyOn(t.ctx.market, 'isOpen').mockReturnValue(false);
    try {
      // A closed market holds the set price without a tick, and nothing fires.
      await quote('1.11000', '1.11020');
      expect((await byId(a.id))?.status).toBe('active');
    } finally {
      isOpen.mockRestore();
    }
    // The first tick after the open fires it at that price.
    await quote('1.10950', '1.10970');
    expect(await byId(a.id)).toMatchObject({ status: 'fired', fired_price: '1.1095' });
  });
});

describe('the cap on active alerts', () => {
  it(`allows ${MAX_ACTIVE_ALERTS} active alerts a client, then answers 400; a fired or deleted one frees a place`, async () => {
    await quote('1.10000', '1.10020');
    const levels = Array.from({ length: MAX_ACTIVE_ALERTS - 1 }, (_, i) => px(2 + i / 1000));
    await t.ctx.db.insert(priceAlerts).values(
      levels.map((price) => ({
        userId: otherId,
        instrumentId: t.ctx.market.instruments.byNameOf(EUR)!.id,
        instrument: EUR,
        side: 'bid',
        condition: 'above',
        price,
      })),
    );
    const last = await create({ side: 'bid', condition: 'above', price: '3' }, other);
    const res = await api('POST', '', other, { instrument: EUR, side: 'bid', condition: 'above', price: '3.1' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(`at most ${MAX_ACTIVE_ALERTS} active alerts`);
    // Editing an active alert keeps its place.
    const edit = await api('PUT', `/${last.id}`, other, {
      instrument: EUR,
      side: 'bid',
      condition: 'above',
      price: '3.2',
    });
    expect(edit.statusCode).toBe(200);
    // The cap is per client: the demo client is not affected.
    await create({ side: 'bid', condition: 'above', price: '3.3' });
    expect((await api('DELETE', `/${last.id}`, other)).statusCode).toBe(200);
    await create({ side: 'bid', condition: 'above', price: '3.4' }, other);
    expect((await list(other)).filter((a) => a.status === 'active').length).toBe(MAX_ACTIVE_ALERTS);
  });

  it('refuses to re-arm a fired alert past the cap', async () => {
    const [fired] = await t.ctx.db
      .insert(priceAlerts)
      .values({
        userId: otherId,
        instrumentId: t.ctx.market.instruments.byNameOf(EUR)!.id,
        instrument: EUR,
        side: 'bid',
        condition: 'above',
        price: '1.2',
        firedAt: new Date(),
        firedPrice: '1.2',
      })
      .returning();
    const res = await api('PUT', `/${fired.id}`, other, {
      instrument: EUR,
      side: 'bid',
      condition: 'above',
      price: '3.5',
    });
    expect(res.statusCode).toBe(400);
    expect((await t.ctx.db.select().from(priceAlerts).where(eq(priceAlerts.id, fired.id)))[0].firedAt).not.toBeNull();
  });
});
