import http from 'node:http';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';

export interface FakeS3Options {
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

interface StoredObject {
  data: Buffer;
  contentType: string;
  etag: string;
  modified: Date;
}

/**
 * A local S3-compatible server on 127.0.0.1 holding one bucket in memory, path style (`/{bucket}/{key}`):
 * PutObject (PUT), GetObject (GET) and HeadObject (HEAD), answered with S3's status codes and XML errors.
 *
 * Every request must carry an AWS Signature Version 4 (`Authorization: AWS4-HMAC-SHA256 ...`) that this fake
 * recomputes from the canonical request, written here from the specification rather than with the SDK's signer, so
 * a passing test shows the product signs correctly: an unknown key id is 403 InvalidAccessKeyId, a wrong secret or
 * anything changed after signing is 403 SignatureDoesNotMatch, a body whose hash differs from
 * x-amz-content-sha256 is 400 XAmzContentSHA256Mismatch, a credential scope for another region or service is 400
 * AuthorizationHeaderMalformed. `requests` records each request with the status and error code it got.
 */
export class FakeS3 {
  readonly server: http.Server;
  /** Objects by key (without the bucket). */
  readonly objects = new Map<string, StoredObject>();
  readonly requests: Array<{ method: string; path: string; status: number; code: string | null }> = [];

  private constructor(readonly options: FakeS3Options) {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.handle(req, res, Buffer.concat(chunks)));
    });
  }

  static async start(options: Partial<FakeS3Options> = {}): Promise<FakeS3> {
    const fake = new FakeS3({
      bucket: 'uploads',
      region: 'eu-west-1',
      accessKeyId: 'AKIAFAKES3TEST',
      secretAccessKey: randomBytes(20).toString('base64'),
      ...options,
    });
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The S3_* settings that reach this bucket. */
  env(overrides: Record<string, string> = {}): Record<string, string> {
    const o = this.options;
    return {
      S3_ENDPOINT: this.url,
      S3_BUCKET: o.bucket,
      S3_REGION: o.region,
      S3_ACCESS_KEY_ID: o.accessKeyId,
      S3_SECRET_ACCESS_KEY: o.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      ...overrides,
    };
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): void {
    const rawPath = (req.url ?? '/').split('?')[0];
    const entry = { method: req.method ?? '', path: rawPath, status: 0, code: null as string | null };
    this.requests.push(entry);
    const requestId = randomBytes(8).toString('hex').toUpperCase();
    const fail = (status: number, code: string, message: string): void => {
      Object.assign(entry, { status, code });
      res.writeHead(status, { 'content-type': 'application/xml', 'x-amz-request-id': requestId });
      const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>${requestId}</RequestId></Error>`;
      res.end(req.method === 'HEAD' ? undefined : xml);
    };

    const refusal = this.verifySignature(req, rawPath, body);
    if (refusal) return fail(...refusal);

    const m = /^\/([^/]+)\/(.+)$/.exec(rawPath);
    if (!m) return fail(501, 'NotImplemented', 'Only path-style object requests are implemented.');
    if (decodeURIComponent(m[1]) !== this.options.bucket)
      return fail(404, 'NoSuchBucket', 'The specified bucket does not exist');
    const key = m[2].split('/').map(decodeURIComponent).join('/');
    const ok = (headers: Record<string, string | number>, payload?: Buffer): void => {
      entry.status = 200;
      res.writeHead(200, { 'x-amz-request-id': requestId, ...headers });
      res.end(req.method === 'HEAD' ? undefined : payload);
    };

    if (req.method === 'PUT') {
      const etag = `"${createHash('md5').update(body).digest('hex')}"`;
      this.objects.set(key, {
        data: body,
        contentType: req.headers['content-type'] ?? 'binary/octet-stream',
        etag,
        modified: new Date(),
      });
      return ok({ etag });
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      const o = this.objects.get(key);
      if (!o) return fail(404, 'NoSuchKey', 'The specified key does not exist.');
      return ok(
        {
          'content-type': o.contentType,
          'content-length': o.data.length,
          etag: o.etag,
          'last-modified': o.modified.toUTCString(),
        },
        o.data,
      );
    }
    return fail(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
  }

  /** Null when the request is signed by this bucket's key, else the status, code and message S3 answers. */
  private verifySignature(req: http.IncomingMessage, rawPath: string, body: Buffer): [number, string, string] | null {
    const auth =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
        req.headers.authorization ?? '',
      );
    if (!auth) return [403, 'AccessDenied', 'Access Denied'];
    const [, keyId, day, region, service, signedHeaderList, signature] = auth;
    if (keyId !== this.options.accessKeyId)
      return [403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.'];
    if (region !== this.options.region || service !== 's3')
      return [
        400,
        'AuthorizationHeaderMalformed',
        `The authorization header is malformed; the region '${region}' is wrong; expecting '${this.options.region}'`,
      ];
    const amzDate = req.headers['x-amz-date'];
    const payloadHash = req.headers['x-amz-content-sha256'];
    const signed = signedHeaderList.split(';');
    if (
      typeof amzDate !== 'string' ||
      !amzDate.startsWith(day) ||
      !signed.includes('host') ||
      !signed.includes('x-amz-date')
    ) {
      return [403, 'AccessDenied', 'The request must sign host and x-amz-date within its credential scope date.'];
    }
    if (typeof payloadHash !== 'string' || !signed.includes('x-amz-content-sha256'))
      return [400, 'InvalidRequest', 'Missing required header for this request: x-amz-content-sha256'];
    if (payloadHash !== 'UNSIGNED-PAYLOAD') {
      if (!/^[0-9a-f]{64}$/.test(payloadHash))
        return [501, 'NotImplemented', 'Only signed or unsigned single-chunk payloads are implemented.'];
      if (createHash('sha256').update(body).digest('hex') !== payloadHash)
        return [
          400,
          'XAmzContentSHA256Mismatch',
          "The provided 'x-amz-content-sha256' header does not match what was computed.",
        ];
    }

    const canonicalRequest = [
      req.method,
      rawPath, // S3 signs the path as sent, encoded once and not normalised
      canonicalQuery((req.url ?? '').split('?')[1] ?? ''),
      ...signed.map((h) => `${h}:${headerValue(req.headers[h])}`),
      '',
      signedHeaderList,
      payloadHash,
    ].join('\n');
    const scope = `${day}/${region}/${service}/aws4_request`;
    const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
    const signingKey = [day, region, service, 'aws4_request'].reduce<Buffer>(
      (key, part) => hmac(key, part),
      Buffer.from(`AWS4${this.options.secretAccessKey}`),
    );
    const expected = hmac(signingKey, stringToSign);
    if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) {
      return [
        403,
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
      ];
    }
    return null;
  }
}

const hmac = (key: Buffer, data: string): Buffer => createHmac('sha256', key).update(data, 'utf8').digest();
const sha256Hex = (data: string): string => createHash('sha256').update(data, 'utf8').digest('hex');

/** RFC 3986 encoding as SigV4 wants it: everything but unreserved characters, in upper-case hex. */
const uriEncode = (s: string): string =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Query parameters decoded, re-encoded and sorted by name, then value; a name without `=` has an empty value. */
function canonicalQuery(raw: string): string {
  if (!raw) return '';
  const pairs = raw
    .split('&')
    .filter(Boolean)
    .map((p) => {
      const i = p.indexOf('=');
      const [name, value] = i < 0 ? [p, ''] : [p.slice(0, i), p.slice(i + 1)];
      return [uriEncode(decodeURIComponent(name)), uriEncode(decodeURIComponent(value))] as const;
    });
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return pairs.map(([n, v]) => `${n}=${v}`).join('&');
}

/** A header's value as signed: several values joined by commas, trimmed, inner runs of spaces made one. */
const headerValue = (v: string | string[] | undefined): string =>
  (Array.isArray(v) ? v.join(',') : (v ?? '')).trim().replace(/\s+/g, ' ');
