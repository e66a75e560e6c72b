import { z } from 'zod';

/**
 * CSV upload of leads (back-office §2 Upload Leads modal, §7 POST /admin/leads/csv). The columns a file may carry,
 * the header spellings each accepts, and the report the server answers with.
 */
export const LEAD_CSV_COLUMNS = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'country',
  'city',
  'funnelLink',
  'reference',
  'leadStatus',
] as const;
export type LeadCsvColumn = (typeof LEAD_CSV_COLUMNS)[number];

/** Header spellings, compared lower-case with spaces, dashes and underscores removed. */
export const LEAD_CSV_HEADER_ALIASES: Record<string, LeadCsvColumn> = {
  firstname: 'firstName',
  name: 'firstName',
  lastname: 'lastName',
  surname: 'lastName',
  email: 'email',
  emailaddress: 'email',
  phone: 'phone',
  phonenumber: 'phone',
  mobile: 'phone',
  country: 'country',
  city: 'city',
  funnellink: 'funnelLink',
  funnel: 'funnelLink',
  reference: 'reference',
  ref: 'reference',
  leadstatus: 'leadStatus',
  status: 'leadStatus',
  salesstatus: 'leadStatus',
};

export const normaliseCsvHeader = (h: string): string => h.toLowerCase().replace(/[\s_-]+/g, '');

/** The most data rows one file may hold, and its size. */
export const LEAD_CSV_MAX_ROWS = 200_000;
export const LEAD_CSV_MAX_BYTES = 32 * 1024 * 1024;
/** Rows listed by name in the report (the counts cover all of them). */
export const LEAD_CSV_REPORT_ROWS = 1_000;

export const LeadCsvRejectedRow = z.object({ row: z.number(), reasons: z.array(z.string()) });
export const LeadCsvDuplicateRow = z.object({
  row: z.number(),
  field: z.enum(['email', 'phone']),
  /**
   * What it duplicates: an existing lead or customer the uploader may see, an earlier row of the same file, or
   * 'known': a record the uploader may not see (another affiliate's lead, someone else's customer), not said whose.
   */
  matches: z.enum(['lead', 'customer', 'file', 'known']),
});

export const LeadCsvReport = z.object({
  message: z.string(),
  total: z.number(),
  accepted: z.number(),
  rejectedCount: z.number(),
  duplicateCount: z.number(),
  rejected: z.array(LeadCsvRejectedRow),
  duplicates: z.array(LeadCsvDuplicateRow),
  ignoredColumns: z.array(z.string()),
});
export type LeadCsvReport = z.infer<typeof LeadCsvReport>;

/**
 * An upload is checked at once (file, size, readable CSV with a header, row count) and imported in the background:
 * queued, then running, then done with its report or failed with the reason.
 */
export const LEAD_IMPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export const LeadImportStatus = z.enum(LEAD_IMPORT_STATUSES);
export type LeadImportStatus = z.infer<typeof LeadImportStatus>;

/** POST /admin/leads/csv answers 202 with the import it queued. */
export const LeadCsvUploadResponse = z.object({
  message: z.string(),
  id: z.number(),
  status: LeadImportStatus,
  fileName: z.string(),
  /** Data rows in the file (the header not counted). */
  rowCount: z.number(),
});
export type LeadCsvUploadResponse = z.infer<typeof LeadCsvUploadResponse>;

/** GET /admin/leads/csv/{id}: where an import stands, its report once done, the reason once failed. */
export const LeadImportResponse = z.object({
  id: z.number(),
  status: LeadImportStatus,
  fileName: z.string(),
  rowCount: z.number(),
  report: LeadCsvReport.nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type LeadImportResponse = z.infer<typeof LeadImportResponse>;

/** The example file the Upload Leads modal links to. */
export const LEAD_CSV_EXAMPLE = [
  LEAD_CSV_COLUMNS.join(','),
  'Jane,Doe,jane.doe@example.com,+44 20 7946 0000,United Kingdom,London,https://example.com/landing,campaign-42,',
  'Carlos,Ruiz,carlos.ruiz@example.com,+34 91 123 4567,Spain,Madrid,,partner-7,',
  '',
].join('\n');
