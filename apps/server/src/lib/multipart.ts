import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError } from './errors.ts';

/** The largest upload the platform takes (a proof, a KYC page, a logo). */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

export interface UploadedFile {
  field: string;
  filename: string;
  data: Buffer;
}

export interface MultipartForm {
  fields: Record<string, string>;
  files: Record<string, UploadedFile>;
}

/**
 * Reads a multipart form: text fields and at most one file per named file field (others are refused). Files are
 * read into memory within maxBytes (MAX_UPLOAD_BYTES unless the route says otherwise); a request that is not
 * multipart, a file too large or an unknown file field is a 400 with a message the form can show.
 */
export async function readMultipart(
  req: FastifyRequest,
  fileFields: readonly string[],
  maxBytes = MAX_UPLOAD_BYTES,
): Promise<MultipartForm> {
  if (!req.isMultipart()) throw new AppError('VALIDATION', 'Send the form as multipart/form-data.');
  const form: MultipartForm = { fields: {}, files: {} };
  try {
    for await (const part of req.parts({
      limits: { fileSize: maxBytes, files: fileFields.length || 1, fields: 30, fieldSize: 4096 },
    })) {
      if (part.type === 'file') {
        if (!fileFields.includes(part.fieldname)) {
          part.file.resume();
          throw new AppError('VALIDATION', `Unexpected file field: ${part.fieldname.slice(0, 40)}`);
        }
        const data = await part.toBuffer();
        if (data.length > 0) form.files[part.fieldname] = { field: part.fieldname, filename: part.filename, data };
      } else if (typeof part.value === 'string') {
        form.fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('VALIDATION', `The file is too large (at most ${maxBytes / 1024 / 1024} MB).`);
    }
    if (typeof code === 'string' && code.startsWith('FST_'))
      throw new AppError('VALIDATION', 'The upload could not be read. Please try again.');
    throw err;
  }
  return form;
}

/** Validates a form's text fields with a shared schema: a 400 with per-field messages when they do not pass. */
export function parseFields<S extends z.ZodType>(schema: S, fields: Record<string, string>): z.output<S> {
  const parsed = schema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? '_');
    errors[key] ??= issue.message;
  }
  throw new AppError('VALIDATION', Object.values(errors)[0] ?? undefined, errors);
}
