import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  createTestApp,
  cookieOf,
  signIn,
  DEMO,
  lastMailLink as lastMailLinkOf,
  type TestApp,
} from '../../../test/helpers.ts';
import { users } from '../../db/schema.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const signupBody = (email: string) => ({
  fullName: 'Nina New',
  email,
  password: 'Secret123!',
  passwordConfirmation: 'Secret123!',
  phone: '+33 1 23 45 67 89',
  birthDate: '1991-02-03',
  country: 'France',
  city: 'Paris',
  address: '1 Rue de Rivoli',
  postalCode: '75001',
  promoCode: '',
  currency: 'EUR',
});

const lastMailLink = (to: string, path: string) => lastMailLinkOf(t, to, path);

describe('sign-up, verification and sign-in', () => {
  it('creates a client with a real and a funded demo wallet, and requires email verification', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: signupBody('nina@example.com'),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().emailVerification).toBe(true);

    const blocked = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'nina@example.com', password: 'Secret123!' },
    });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().message).toMatch(/verify your email/i);

    const token = await lastMailLink('nina@example.com', '/verify-email');
    const ok = await t.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token } });
    expect(ok.statusCode).toBe(200);
    const again = await t.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token } });
    expect(again.statusCode).toBe(422);

    const cookie = await signIn(t.app, 'nina@example.com', 'Secret123!');
    const me = (await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).json();
    expect(me.user.role_id).toBe(3);
    expect(
      me.user.balances.map((b: { mode: string; currency: string; balance: string }) => [
        b.mode,
        b.currency,
        Number(b.balance),
      ]),
    ).toEqual([
      ['real', 'EUR', 0],
      ['demo', 'EUR', 10000],
    ]);
    expect(me.activeBalance.mode).toBe('demo');
    expect(me.isKyc).toBe(false);

    // Admins are told of the new customer, with a link to the customer's page; the manager is not.
    const admin = await signIn(t.app, DEMO.admin);
    const notices = (
      await t.app.inject({ method: 'GET', url: '/api/notifications', headers: { cookie: admin } })
    ).json();
    expect(notices.data).toContainEqual(
      expect.objectContaining({ title: 'New customer', url: `/admin/customers/edit/${me.user.id}` }),
    );
    const manager = await signIn(t.app, DEMO.manager);
    const theirs = (
      await t.app.inject({ method: 'GET', url: '/api/notifications', headers: { cookie: manager } })
    ).json();
    expect(theirs.data.map((n: { title: string }) => n.title)).not.toContain('New customer');
  });

  it('rejects bad sign-up input with field messages and changes nothing', async () => {
    const body = { ...signupBody('bad@example.com'), passwordConfirmation: 'Different1', password: 'short' };
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { ...body, fullName: '' } });
    expect(res.statusCode).toBe(400);
    const { errors } = res.json();
    expect(errors.fullName).toBe('Full name is required');
    expect(errors.password).toBe('Password must be at least 8 characters');
    const mismatch = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { ...signupBody('bad@example.com'), passwordConfirmation: 'Other12345' },
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors.passwordConfirmation).toBe('Passwords must match');
    const rows = await t.ctx.db.select().from(users).where(eq(users.email, 'bad@example.com'));
    expect(rows).toHaveLength(0);
  });

  it('refuses a second account with the same email (any case)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: signupBody('CLIENT@demo.test'),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors.email).toMatch(/already exists/);
  });

  it('lets only one of two simultaneous sign-ups with one email through', async () => {
    const [a, b] = await Promise.all([
      t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: signupBody('twin@example.com') }),
      t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: signupBody('Twin@example.com') }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const rows = await t.ctx.db.select().from(users).where(eq(users.email, 'twin@example.com'));
    expect(rows.length + (await t.ctx.db.select().from(users).where(eq(users.email, 'Twin@example.com'))).length).toBe(
      1,
    );
  });

  it('answers a wrong password with "Invalid Credentials" and rotates the session on sign-in', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: DEMO.manager, password: 'nope-nope' },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().message).toBe('Invalid Credentials');
    const first = await signIn(t.app, DEMO.manager);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { cookie: first },
      payload: { email: DEMO.manager, password: 'Demo12345!' },
    });
    const second = cookieOf(res);
    expect(second).not.toBe(first);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: first } })).statusCode).toBe(
      401,
    );
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: second } })).statusCode).toBe(
      200,
    );
  });

  it('gives a browser-session cookie without Remember Me and a dated one with it', async () => {
    const plain = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: DEMO.agent, password: 'Demo12345!' },
    });
    expect(String(plain.headers['set-cookie'])).not.toMatch(/Expires=/i);
    expect(String(plain.headers['set-cookie'])).toMatch(/HttpOnly/i);
    expect(String(plain.headers['set-cookie'])).toMatch(/SameSite=Lax/i);
    const remembered = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: DEMO.agent, password: 'Demo12345!', remember: true },
    });
    expect(String(remembered.headers['set-cookie'])).toMatch(/Expires=/i);
  });

  it('limits failed sign-ins per account with 429', async () => {
    for (let i = 0; i < 5; i++)
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: DEMO.retention, password: 'wrong-pass' },
        remoteAddress: `10.0.0.${i + 1}`,
      });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: DEMO.retention, password: 'Demo12345!' },
      remoteAddress: '10.0.1.1',
    });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toMatch(/Too many failed sign-ins for this account/);
  });

  it('logout ends the session', async () => {
    const cookie = await signIn(t.app, DEMO.client);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(out.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(401);
  });

  it('blocks cross-site state changes (CSRF) but accepts same-origin ones', async () => {
    const cookie = await signIn(t.app, DEMO.client);
    const evil = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie, origin: 'https://evil.example', host: 'localhost:3000' },
    });
    expect(evil.statusCode).toBe(403);
    // Neither an odd spelling of the path nor a forged X-Forwarded-Host (no trusted proxy here) gets past the check.
    for (const headers of [
      { cookie, origin: 'https://evil.example', host: 'localhost:3000', url: '/%61pi/auth/logout' },
      {
        cookie,
        origin: 'https://evil.example',
        host: 'localhost:3000',
        'x-forwarded-host': 'evil.example',
        url: '/api/auth/logout',
      },
      { cookie, 'sec-fetch-site': 'cross-site', url: '/API//auth/logout/' },
      // Same host, other scheme: a plain-http page is not the site.
      { cookie, origin: 'https://localhost:3000', host: 'localhost:3000', url: '/api/auth/logout' },
    ]) {
      const { url, ...h } = headers;
      expect((await t.app.inject({ method: 'POST', url, headers: h })).statusCode, JSON.stringify(headers)).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(200);
    const same = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie, origin: 'http://localhost:3000', host: 'localhost:3000' },
    });
    expect(same.statusCode).toBe(200);
  });
});

describe('password reset', () => {
  it('mails a single-use link, sets the new password and ends old sessions', async () => {
    const old = await signIn(t.app, DEMO.affiliate);
    const req = await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: DEMO.affiliate } });
    expect(req.statusCode).toBe(200);
    const token = await lastMailLink(DEMO.affiliate, '/reset-password');
    const short = await t.app.inject({
      method: 'PUT',
      url: '/api/forgot-password',
      payload: { token, password: 'short' },
    });
    expect(short.statusCode).toBe(400);
    const ok = await t.app.inject({
      method: 'PUT',
      url: '/api/forgot-password',
      payload: { token, password: 'BrandNew123' },
    });
    expect(ok.statusCode).toBe(200);
    const reuse = await t.app.inject({
      method: 'PUT',
      url: '/api/forgot-password',
      payload: { token, password: 'Another123' },
    });
    expect(reuse.statusCode).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: old } })).statusCode).toBe(
      401,
    );
    await signIn(t.app, DEMO.affiliate, 'BrandNew123');
  });

  it('answers the same for unknown addresses and validates the email', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/forgot-password',
      payload: { email: 'nobody@example.com' },
    });
    expect(res.statusCode).toBe(200);
    const bad = await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.email).toBe('Invalid email');
    const empty = await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: {} });
    expect(empty.json().errors.email).toBe('Email is required');
  });
});

describe('forgot password for unknown and known addresses', () => {
  it('answers without waiting for the lookup and the mail, so both answer alike', async () => {
    const original = t.ctx.mailer.send;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const sent: string[] = [];
    // A mail server that does not answer until told to: the request must not wait for it.
    t.ctx.mailer.send = async (msg, secret) => {
      await held;
      sent.push(msg.to);
      return original(msg, secret);
    };
    try {
      for (const email of [DEMO.manager, 'nobody-here@example.com']) {
        const res = await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email } });
        expect(res.statusCode).toBe(200);
        expect(res.json().message).toBe(
          `We have sent a verification email to ${email}. Please click the link in it to reset your password.`,
        );
      }
      expect(sent).toEqual([]);
      release();
      await t.ctx.jobs.idle();
      expect(sent).toEqual([DEMO.manager]);
    } finally {
      t.ctx.mailer.send = original;
    }
  });
});
