import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, newVerifiedCustomer, signIn, type TestApp } from './helpers.ts';

/**
 * The account takeover reported against the percent-encoded path, replayed as the attacker did it: ask for the
 * victim's reset link, read it from the outbox through an odd spelling of the path, set a new password.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const resetLinkIn = (body: string) => body.match(/reset-password\?token=([\w-]+)/)?.[1];

describe('reset-link takeover', () => {
  it('cannot read the victim’s reset link from the outbox, anonymously or as another customer', async () => {
    const victim = await newVerifiedCustomer(t, 'victim');
    const asked = await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: victim.email } });
    expect(asked.statusCode).toBe(200);
    await t.ctx.jobs.idle();

    const attacker = await newVerifiedCustomer(t, 'attacker');
    const attackerCookie = await signIn(t.app, attacker.email, attacker.password);
    const paths = [
      `/%61pi/admin/mail/api?search=${encodeURIComponent(victim.email)}`,
      `/ap%69/admin/mail/api?search=${encodeURIComponent(victim.email)}`,
      `/API/admin/mail/api?search=${encodeURIComponent(victim.email)}`,
      `//api//admin/mail/api/?search=${encodeURIComponent(victim.email)}`,
      `/api/x/../admin/mail/api?search=${encodeURIComponent(victim.email)}`,
    ];
    for (const url of paths) {
      const anonymous = await t.app.inject({ method: 'GET', url });
      expect(anonymous.statusCode, url).toBe(401);
      expect(resetLinkIn(anonymous.body), url).toBeUndefined();
      const customer = await t.app.inject({ method: 'GET', url, headers: { cookie: attackerCookie } });
      expect(customer.statusCode, url).toBe(403);
      expect(resetLinkIn(customer.body), url).toBeUndefined();
    }
    for (const id of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/%61pi/admin/mail/${id}`,
        headers: { cookie: attackerCookie },
      });
      expect(res.statusCode).toBe(403);
      expect(resetLinkIn(res.body)).toBeUndefined();
    }

    // Without the link the attacker cannot set a password, and the victim's own still works.
    const guessed = await t.app.inject({
      method: 'PUT',
      url: '/api/forgot-password',
      payload: { token: 'a'.repeat(43), password: 'Attacker123!' },
    });
    expect(guessed.statusCode).toBe(422);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: victim.email, password: 'Attacker123!' },
        })
      ).statusCode,
    ).toBe(401);
    await signIn(t.app, victim.email, victim.password);
  });
});
