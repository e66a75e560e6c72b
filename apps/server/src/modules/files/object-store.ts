import { GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { S3Settings } from '../../config.ts';
import { AppError } from '../../lib/errors.ts';

/** A bucket of uploaded files' bytes, named by key. Objects are only ever added: kept records keep their files. */
export interface ObjectStore {
  /** The bucket and endpoint, for logs and the start banner (no credentials). */
  readonly where: string;
  put(key: string, data: Buffer, mime: string): Promise<void>;
  /** The object's bytes, or null when the bucket has no such object. */
  get(key: string): Promise<Buffer | null>;
}

/**
 * An S3-compatible bucket (AWS S3, MinIO, Ceph, R2, ...) through the AWS SDK. Failures become AppErrors: a storage
 * that cannot be reached (network, timeout, its own 5xx) is a 503 to try again later; one that answers but refuses
 * (signature, key, bucket, region) is a misconfiguration, a 502. What S3 said goes to the log as the cause.
 */
export function createS3Store(s: S3Settings): ObjectStore {
  const client = new S3Client({
    endpoint: s.endpoint,
    region: s.region,
    forcePathStyle: s.forcePathStyle,
    // Only these keys: the SDK would otherwise also look at AWS_* variables, profiles and instance metadata.
    credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey },
    // Not every S3-compatible server takes the SDK's default CRC32 checksums; send them only where S3 requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // An upload waits on this inside its database transaction: bounded, one retry.
    maxAttempts: 2,
    requestHandler: { connectionTimeout: 3_000, requestTimeout: 20_000, throwOnRequestTimeout: true },
  });
  const where = `bucket ${s.bucket} at ${s.endpoint ?? `AWS S3 ${s.region}`}`;

  return {
    where,
    async put(key, data, mime) {
      try {
        await client.send(
          new PutObjectCommand({
            Bucket: s.bucket,
            Key: key,
            Body: data,
            ContentType: mime,
            ContentLength: data.length,
          }),
        );
      } catch (err) {
        throw storageError(err, `PutObject ${key} in ${where}`);
      }
    },
    async get(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: s.bucket, Key: key }));
        if (!res.Body) return Buffer.alloc(0);
        const bytes = await res.Body.transformToByteArray();
        return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      } catch (err) {
        if (err instanceof S3ServiceException && err.name === 'NoSuchKey') return null;
        throw storageError(err, `GetObject ${key} in ${where}`);
      }
    },
  };
}

function storageError(err: unknown, what: string): AppError {
  const status = err instanceof S3ServiceException ? err.$metadata.httpStatusCode : undefined;
  const said = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  const cause = new Error(`${what} failed${status ? ` (HTTP ${status})` : ''}: ${said}`, { cause: err });
  const refused = status !== undefined && status < 500 && status !== 429;
  return new AppError(refused ? 'FILE_STORAGE_REFUSED' : 'FILE_STORAGE_UNAVAILABLE', undefined, undefined, { cause });
}
