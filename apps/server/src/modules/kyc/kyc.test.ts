import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  DEMO,
  multipart,
  newVerifiedCustomer,
  PNG_BYTES,
  signIn,
  type TestApp,
} from '../../../test/helpers.ts';

let t: TestApp;
let admin: string;

const submit = (
  cookie: string,
  type = 'passport',
  files: Record<string, Buffer> = { front: PNG_BYTES, address: Buffer.from('%PDF-1.4\n%test\n') },
) => {
  const form = multipart({ type }, Object.fromEntries(Object.entries(files).map(([k, data]) => [k, { data }])));
  return t.app.inject({ method: 'POST', url: '/api/kyc', headers: { cookie, ...form.headers }, payload: form.payload });
};
const status = async (cookie: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/kyc', headers: { cookie } })).json();
const isKyc = async (cookie: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).json().isKyc;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
});
afterAll(() => t.close());

describe('KYC', () => {
  it('goes not submitted → pending → declined with a reason → resubmitted → approved, and switches isKyc', async () => {
    const c = await newVerifiedCustomer(t, 'kyc');
    const cookie = await signIn(t.app, c.email, c.password);
    expect(await status(cookie)).toMatchObject({ status: 'not_submitted' });
    expect((await submit(cookie, 'selfie')).statusCode).toBe(400);
    expect((await submit(cookie, 'passport', { front: Buffer.from('MZ executable') })).statusCode).toBe(400);
    expect((await submit(cookie, 'passport', {})).statusCode).toBe(400);
    expect(await status(cookie)).toMatchObject({ status: 'not_submitted' });

    const first = await submit(cookie);
    expect(first.statusCode, first.body).toBe(200);
    expect(await status(cookie)).toMatchObject({ status: 'pending', type: 'passport' });
    expect((await submit(cookie)).statusCode).toBe(409);

    const list = (
      await t.app.inject({
        method: 'GET',
        url: `/api/admin/kyc/api?search=${encodeURIComponent(c.email)}`,
        headers: { cookie: admin },
      })
    ).json();
    expect(list.meta.total).toBe(1);
    const doc = list.data[0];
    expect(doc.front.url).toMatch(/^\/api\/files\//);
    expect(doc.back).toBeNull();

    // The documents: the owner and admins see them; a manager and another customer are told they do not exist.
    expect(
      (await t.app.inject({ method: 'GET', url: doc.front.url, headers: { cookie } })).headers['content-type'],
    ).toBe('image/png');
    expect(
      (await t.app.inject({ method: 'GET', url: doc.address.url, headers: { cookie: admin } })).headers['content-type'],
    ).toBe('application/pdf');
    const manager = await signIn(t.app, DEMO.manager);
    expect((await t.app.inject({ method: 'GET', url: doc.front.url, headers: { cookie: manager } })).statusCode).toBe(
      404,
    );
    const other = await newVerifiedCustomer(t);
    const otherCookie = await signIn(t.app, other.email, other.password);
    expect(
      (await t.app.inject({ method: 'GET', url: doc.front.url, headers: { cookie: otherCookie } })).statusCode,
    ).toBe(404);

    const decline = await t.app.inject({
      method: 'POST',
      url: `/api/admin/kyc/${doc.id}/decline`,
      headers: { cookie: admin },
      payload: { declineReason: 'Photo is blurred' },
    });
    expect(decline.json().message).toBe('KYC declined successfully');
    expect(await status(cookie)).toMatchObject({ status: 'declined', declineReason: 'Photo is blurred' });
    const notes = (await t.app.inject({ method: 'GET', url: '/api/notifications', headers: { cookie } })).json().data;
    expect(notes[0].title).toBe('KYC declined');

    expect((await submit(cookie, 'national_id')).statusCode).toBe(200);
    const again = (
      await t.app.inject({
        method: 'GET',
        url: `/api/admin/kyc/api?search=${encodeURIComponent(c.email)}`,
        headers: { cookie: admin },
      })
    ).json();
    expect(again.meta.total).toBe(2); // the declined submission is kept
    const approve = await t.app.inject({
      method: 'POST',
      url: `/api/admin/kyc/${again.data[0].id}/approve`,
      headers: { cookie: admin },
    });
    expect(approve.json().message).toBe('Document approved successfully');
    expect(await isKyc(cookie)).toBe(true);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/admin/kyc/${again.data[0].id}/approve`,
          headers: { cookie: admin },
        })
      ).statusCode,
    ).toBe(409);
    expect((await submit(cookie)).statusCode).toBe(409);
  });

  it('answers 404 for an unknown document and refuses managers', async () => {
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/admin/kyc/999999/approve', headers: { cookie: admin } }))
        .statusCode,
    ).toBe(404);
    const manager = await signIn(t.app, DEMO.manager);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/kyc/api', headers: { cookie: manager } })).statusCode,
    ).toBe(403);
  });
});
