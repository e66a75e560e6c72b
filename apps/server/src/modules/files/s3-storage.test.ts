import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ERRORS } from '@platform/domain';
import { loadConfig } from '../../config.ts';
import { kycDocuments, storedFiles } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { MAX_UPLOAD_BYTES } from '../../lib/multipart.ts';
import { FakeS3 } from '../../../test/fakes/s3.ts';
import { createTestApp, DEMO, newVerifiedCustomer, PNG_BYTES, signIn, type TestApp } from '../../../test/helpers.ts';
import { createS3Store, type ObjectStore } from './object-store.ts';
import { storeFile } from './storage.ts';

const PDF_BYTES = Buffer.from('%PDF-1.4\n%test document\n');

let fake: FakeS3;
let t: TestApp;
let base: string;

beforeAll(async () => {
  fake = await FakeS3.start();
  t = await createTestApp(fake.env());
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** A KYC submission over real HTTP, as the browser sends it. */
async function submitKyc(cookie: string, files: Record<string, Buffer> = { front: PNG_BYTES, address: PDF_BYTES }) {
  const form = new FormData();
  form.append('type', 'passport');
  for (const [field, data] of Object.entries(files))
    form.append(field, new Blob([new Uint8Array(data)]), `${field}.bin`);
  const res = await fetch(`${base}/api/kyc`, { method: 'POST', headers: { cookie }, body: form });
  return { status: res.status, body: (await res.json()) as { message: string } };
}

async function download(id: string, cookie: string) {
  const res = await fetch(`${base}/api/files/${id}`, { headers: { cookie } });
  return { status: res.status, type: res.headers.get('content-type'), data: Buffer.from(await res.arrayBuffer()) };
}

async function customer() {
  const c = await newVerifiedCustomer(t, 's3');
  return { ...c, cookie: await signIn(t.app, c.email, c.password) };
}

const kycOf = (userId: number) => t.ctx.db.select().from(kycDocuments).where(eq(kycDocuments.userId, userId));
const fileRow = async (id: string) => (await t.ctx.db.select().from(storedFiles).where(eq(storedFiles.id, id)))[0];
const fileCount = async () => (await t.ctx.db.select({ n: count() }).from(storedFiles))[0].n;

/** Runs `fn` with another bucket configuration (a wrong secret, an endpoint nobody answers), then restores S3. */
async function withStore<T>(store: ObjectStore, fn: () => Promise<T>): Promise<T> {
  const configured = t.ctx.objectStore;
  t.ctx.objectStore = store;
  try {
    return await fn();
  } finally {
    t.ctx.objectStore = configured;
  }
}

/** An http:// endpoint on this machine where nothing listens. */
async function closedEndpoint(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe('uploads in S3-compatible storage', () => {
  it('puts a new upload in the bucket under its random id and serves it through the files route', async () => {
    const c = await customer();
    const sent = await submitKyc(c.cookie);
    expect(sent.status, sent.body.message).toBe(200);

    const [doc] = await kycOf(c.id);
    for (const [id, bytes, mime] of [
      [doc.front!, PNG_BYTES, 'image/png'],
      [doc.address!, PDF_BYTES, 'application/pdf'],
    ] as const) {
      expect(await fileRow(id)).toMatchObject({
        location: 's3',
        data: null,
        size: bytes.length,
        mime,
        purpose: 'kyc',
        ownerId: c.id,
      });
      const object = fake.objects.get(`files/${id}`);
      expect(object?.data.equals(bytes)).toBe(true);
      expect(object?.contentType).toBe(mime);

      const got = await download(id, c.cookie);
      expect(got.status).toBe(200);
      expect(got.type).toBe(mime);
      expect(got.data.equals(bytes)).toBe(true);
    }
    expect((await download(doc.front!, await signIn(t.app, DEMO.admin))).status).toBe(200);
    // Every request reached the bucket signed with the configured key (the fake recomputes each signature).
    expect(fake.requests.filter((r) => r.status !== 200)).toEqual([]);

    // Someone who may not read the file is told it does not exist, without a request to the bucket.
    const requests = fake.requests.length;
    const other = await customer();
    expect((await download(doc.front!, other.cookie)).status).toBe(404);
    expect(fake.requests.length).toBe(requests);
  });

  it('still serves a file stored in the database before S3 was configured', async () => {
    // The row as the earlier code wrote it: no location given, the bytes in `data`.
    const id = 'before-s3-logo-0001';
    await t.ctx.db
      .insert(storedFiles)
      .values({ id, ownerId: null, purpose: 'logo', mime: 'image/png', size: PNG_BYTES.length, data: PNG_BYTES });
    expect((await fileRow(id)).location).toBe('db');
    const requests = fake.requests.length;

    const got = await download(id, '');
    expect(got.status).toBe(200);
    expect(got.data.equals(PNG_BYTES)).toBe(true);
    expect(fake.requests.length).toBe(requests);
  });

  it('refuses the upload with a clear error and writes no row when the bucket rejects the signature', async () => {
    const wrongSecret = createS3Store(loadConfig(fake.env({ S3_SECRET_ACCESS_KEY: 'not-the-secret' })).s3!);
    const c = await customer();
    const [files, objects] = [await fileCount(), fake.objects.size];

    const sent = await withStore(wrongSecret, () => submitKyc(c.cookie));
    expect(sent.status).toBe(502);
    expect(sent.body.message).toBe(ERRORS.FILE_STORAGE_REFUSED.message);
    expect(fake.requests.at(-1)).toMatchObject({ method: 'PUT', status: 403, code: 'SignatureDoesNotMatch' });
    expect(await fileCount()).toBe(files);
    expect(fake.objects.size).toBe(objects);
    expect(await kycOf(c.id)).toEqual([]);

    // With the right key again the same customer's submission goes through.
    expect((await submitKyc(c.cookie)).status).toBe(200);
  });

  it('answers 503 when the storage cannot be reached, for uploads (no row written) and downloads', async () => {
    const unreachable = createS3Store(loadConfig(fake.env({ S3_ENDPOINT: await closedEndpoint() })).s3!);
    const c = await customer();
    expect((await submitKyc(c.cookie)).status).toBe(200);
    const [stored] = await kycOf(c.id);
    const files = await fileCount();

    const other = await customer();
    const started = Date.now();
    const sent = await withStore(unreachable, () => submitKyc(other.cookie));
    expect(sent.status).toBe(503);
    expect(sent.body.message).toBe(ERRORS.FILE_STORAGE_UNAVAILABLE.message);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await fileCount()).toBe(files);
    expect(await kycOf(other.id)).toEqual([]);

    const got = await withStore(unreachable, () => download(stored.front!, c.cookie));
    expect(got.status).toBe(503);
    expect(JSON.parse(got.data.toString()).message).toBe(ERRORS.FILE_STORAGE_UNAVAILABLE.message);
  });
});

describe('what is stored', () => {
  it('checks content and size before anything reaches the bucket', async () => {
    const requests = fake.requests.length;
    const upload = (data: Buffer) => storeFile(t.ctx, t.ctx.db, { field: 'front', filename: 'f', data }, 'kyc', null);
    await expect(upload(Buffer.from('MZ not a document'))).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(upload(Buffer.concat([PNG_BYTES, Buffer.alloc(MAX_UPLOAD_BYTES)]))).rejects.toBeInstanceOf(AppError);
    expect(fake.requests.length).toBe(requests);
  });
});

describe('the local S3 server', () => {
  it('answers HeadObject to a signed request and refuses an unsigned or altered one', async () => {
    const o = fake.options;
    const client = new S3Client({
      endpoint: fake.url,
      region: o.region,
      forcePathStyle: true,
      credentials: { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey },
    });
    const key = 'files/head-check';
    await client.send(new PutObjectCommand({ Bucket: o.bucket, Key: key, Body: PNG_BYTES, ContentType: 'image/png' }));
    const head = await client.send(new HeadObjectCommand({ Bucket: o.bucket, Key: key }));
    expect([head.ContentLength, head.ContentType]).toEqual([PNG_BYTES.length, 'image/png']);
    await expect(client.send(new HeadObjectCommand({ Bucket: o.bucket, Key: 'files/none' }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 404 },
    });

    expect((await fetch(`${fake.url}/${o.bucket}/${key}`)).status).toBe(403);
    // A request signed for one key but sent for another: the path is part of what is signed.
    client.middlewareStack.add(
      (next) => async (args) => {
        const req = args.request as { path: string };
        req.path = req.path.replace('files/', 'files/x');
        return next(args);
      },
      { step: 'finalizeRequest', priority: 'low' },
    );
    await expect(client.send(new HeadObjectCommand({ Bucket: o.bucket, Key: key }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 403 },
    });
    expect(fake.requests.at(-1)?.code).toBe('SignatureDoesNotMatch');
  });
});

describe('S3 settings', () => {
  it('are all or nothing: some without the others stop the start and name what is missing', () => {
    expect(loadConfig({}).s3).toBeNull();
    expect(loadConfig({ S3_ENDPOINT: '', S3_BUCKET: '' }).s3).toBeNull();
    expect(() => loadConfig({ S3_BUCKET: 'uploads', S3_ACCESS_KEY_ID: 'key' })).toThrow(
      /S3 storage is partly configured: S3_BUCKET, S3_ACCESS_KEY_ID set but S3_SECRET_ACCESS_KEY missing/,
    );
    expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(
      /S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY missing/,
    );
    expect(() => loadConfig({ ...fake.env(), S3_ENDPOINT: 'ftp://files' })).toThrow(
      /S3_ENDPOINT must be an http\(s\) URL/,
    );
    expect(loadConfig({ S3_BUCKET: 'uploads', S3_ACCESS_KEY_ID: 'key', S3_SECRET_ACCESS_KEY: 'secret' }).s3).toEqual({
      endpoint: undefined,
      bucket: 'uploads',
      region: 'us-east-1',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      forcePathStyle: false,
    });
  });
});
