import { describe, expect, it } from 'vitest';
import {
  LEAD_GROUPS,
  LeadBulkRequest,
  SalesStatusRequest,
  canMoveLead,
  notePreview,
  statusFromUrl,
  statusToUrl,
} from './crm.ts';

describe('CRM rules', () => {
  it('moves lead groups exactly as back-office §4 allows', () => {
    const allowed = LEAD_GROUPS.flatMap((from) =>
      LEAD_GROUPS.filter((to) => canMoveLead(from, to)).map((to) => `${from}>${to}`),
    );
    expect(allowed.sort()).toEqual(
      [
        'archived>sales',
        'clients>archived',
        'clients>retentions',
        'clients>sales',
        'retentions>archived',
        'retentions>sales',
        'sales>archived',
        'sales>retentions',
      ].sort(),
    );
  });

  it('spells statuses in urls with underscores for spaces, and back', () => {
    expect(statusToUrl('Not Interested')).toBe('Not_Interested');
    expect(statusFromUrl('Call_Back')).toBe('Call Back');
  });

  it('previews notes as 12 characters and an ellipsis', () => {
    expect(notePreview('Short note')).toBe('Short note');
    expect(notePreview('Called, asked to ring back')).toBe('Called, aske…');
  });

  it('validates sales statuses and bulk requests with the spec messages', () => {
    const bad = SalesStatusRequest.safeParse({ status: ' ', isDefault: undefined });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.message).sort()).toEqual(['Status is required', 'isDefault is required']);
    expect(LeadBulkRequest.parse({ ids: [3, 4], data: { agentId: -2 } })).toEqual({
      ids: [3, 4],
      data: { agentId: null },
    });
    expect(LeadBulkRequest.safeParse({ ids: [3], data: { group: 'clients' } }).success).toBe(false);
    expect(LeadBulkRequest.safeParse({ ids: [], data: { group: 'sales' } }).success).toBe(false);
  });
});
