import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { storedFiles, userProfiles } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { MAX_UPLOAD_BYTES, type UploadedFile } from '../../lib/multipart.ts';

/** What a file is; it decides who may read it (see mayRead). */
export type FilePurpose = 'proof' | 'kyc' | 'logo' | 'qr';

export type FileKind = 'image/jpeg' | 'image/png' | 'image/webp' | 'application/pdf';

/** The type of a file by its first bytes, never by its name or the browser's word: JPEG, PNG, WebP or PDF. */
export function sniff(data: Buffer): FileKind | null {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  if (data.length >= 5 && data.toString('latin1', 0, 5) === '%PDF-') return 'application/pdf';
  return null;
}

const IMAGES: readonly FileKind[] = ['image/jpeg', 'image/png', 'image/webp'];
const DOCUMENTS: readonly FileKind[] = [...IMAGES, 'application/pdf'];

/** Which contents each purpose takes: documents may be PDFs, pictures shown in pages must be images. */
const ACCEPTED: Record<FilePurpose, readonly FileKind[]> = {
  proof: DOCUMENTS,
  kyc: DOCUMENTS,
  logo: IMAGES,
  qr: IMAGES,
};

/** The S3 object of an 's3' file; a 'db' file's bytes are in the `data` column of its row. */
const objectKey = (id: string) => `files/${id}`;

/** An upload that passed its checks and, with S3 configured, is already in the bucket: what its row needs. */
export interface PreparedFile {
  id: string;
  purpose: FilePurpose;
  mime: FileKind;
  size: number;
  location: 'db' | 's3';
  data: Buffer | null;
}

/**
 * Checks an upload's content and size and gives it a random id; with S3 configured (ctx.objectStore) puts it in the
 * bucket as well. Called before the caller's transaction opens, so no transaction (or row lock) waits on the bucket;
 * the row is written by recordFile inside it. A failed put leaves no row; a transaction rolled back after the put
 * leaves an unreferenced object behind, never a row without its bytes. `field` names the form field in the error.
 */
export async function prepareFile(
  ctx: Pick<AppContext, 'objectStore'>,
  file: UploadedFile,
  purpose: FilePurpose,
): Promise<PreparedFile> {
  const mime = sniff(file.data);
  if (!mime || !ACCEPTED[purpose].includes(mime)) {
    const allowed = ACCEPTED[purpose] === IMAGES ? 'a JPEG, PNG or WebP image' : 'a JPEG, PNG or WebP image or a PDF';
    throw new AppError('VALIDATION', `The file must be ${allowed}.`, { [file.field]: `The file must be ${allowed}.` });
  }
  // Forms are read within this bound already; checked here too because nothing past this line may store more.
  if (file.data.length > MAX_UPLOAD_BYTES) {
    const message = `The file is too large (at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB).`;
    throw new AppError('VALIDATION', message, { [file.field]: message });
  }
  const id = randomBytes(18).toString('base64url');
  const base = { id, purpose, mime, size: file.data.length };
  if (!ctx.objectStore) return { ...base, location: 'db', data: file.data };
  await ctx.objectStore.put(objectKey(id), file.data, mime);
  return { ...base, location: 's3', data: null };
}

/** Writes a prepared file's row in the caller's transaction, so the file and the record pointing at it commit together. */
export async function recordFile(db: DbOrTx, f: PreparedFile, ownerId: number | null): Promise<string> {
  await db
    .insert(storedFiles)
    .values({ id: f.id, ownerId, purpose: f.purpose, mime: f.mime, size: f.size, location: f.location, data: f.data });
  return f.id;
}

/** Both steps at once, for callers with no transaction of their own to keep short. */
export async function storeFile(
  ctx: Pick<AppContext, 'objectStore'>,
  db: DbOrTx,
  file: UploadedFile,
  purpose: FilePurpose,
  ownerId: number | null,
): Promise<string> {
  return recordFile(db, await prepareFile(ctx, file, purpose), ownerId);
}

/** The URL a file is served at (through the authorised route). */
export const fileUrl = (id: string | null | undefined): string | null => (id ? `/api/files/${id}` : null);

export type StoredFile = typeof storedFiles.$inferSelect;

/** A file's record; the bytes come with it when they are in the database (see fileBytes). */
export async function loadFile(db: DbOrTx, id: string): Promise<StoredFile | null> {
  if (!/^[A-Za-z0-9_-]{8,40}$/.test(id)) return null;
  const [row] = await db.select().from(storedFiles).where(eq(storedFiles.id, id)).limit(1);
  return row ?? null;
}

/**
 * A file's bytes from wherever its row says they are, so files stored before S3 was configured keep being served
 * from the database. Read only after mayRead: an S3 read costs a request to the bucket.
 */
export async function fileBytes(ctx: Pick<AppContext, 'objectStore'>, file: StoredFile): Promise<Buffer> {
  // The table's check keeps the bytes on every 'db' row and none on an 's3' one.
  if (file.location !== 's3') {
    if (!file.data) throw new Error(`stored file ${file.id} has no bytes`);
    return file.data;
  }
  if (!ctx.objectStore) {
    throw new AppError('FILE_STORAGE_UNAVAILABLE', undefined, undefined, {
      cause: new Error(`file ${file.id} is in S3 but no S3 storage is configured (S3_BUCKET and its keys)`),
    });
  }
  const data = await ctx.objectStore.get(objectKey(file.id));
  if (!data)
    throw new AppError('NOT_FOUND', 'File not found.', undefined, {
      cause: new Error(`file ${file.id} has a record but no object ${objectKey(file.id)} in ${ctx.objectStore.where}`),
    });
  return data;
}

/**
 * Who may read a file: logos and QR images are shown on client pages (any signed-in user); a bank-transfer proof to
 * its owner, to admins and to the owner's own manager (back-office rule: the customer's manager only); a KYC document
 * to its owner and to admins. Anyone else is told it does not exist.
 */
export async function mayRead(db: DbOrTx, file: StoredFile, reader: { id: number; roleId: number }): Promise<boolean> {
  if (file.purpose === 'logo' || file.purpose === 'qr') return true;
  if (file.ownerId === reader.id) return true;
  if (file.purpose === 'proof') {
    if (reader.roleId === 1) return true;
    if (reader.roleId !== 2 || file.ownerId === null) return false;
    const [managed] = await db
      .select({ id: userProfiles.userId })
      .from(userProfiles)
      .where(and(eq(userProfiles.userId, file.ownerId), eq(userProfiles.managerId, reader.id)))
      .limit(1);
    return Boolean(managed);
  }
  if (file.purpose === 'kyc') return reader.roleId === 1;
  return false;
}
