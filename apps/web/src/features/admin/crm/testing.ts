import type { LeadItem } from '@platform/domain';

/** A sales lead as the lists return it (Hannah Brown, worked by the sales agent Sam Sales); tests pass what differs. */
export function leadItem(o: Partial<LeadItem> = {}): LeadItem {
  return {
    id: 41,
    first_name: 'Hannah',
    last_name: 'Brown',
    email: 'hannah.brown@mail.example.com',
    phone: '+44 7700 900123',
    notes: [],
    country: 'United Kingdom',
    city: 'Leeds',
    funnel_link: null,
    reference: null,
    lead_source_id: null,
    lead_status: 'New',
    group: 'sales',
    source: 'manual',
    manager: null,
    agent: { id: 5, full_name: 'Sam Sales' },
    retAgent: null,
    manager_id: null,
    agent_id: 5,
    ret_id: null,
    created_at: '2026-05-01T09:00:00Z',
    deposited_at: null,
    ftd_at: null,
    last_access: null,
    user: null,
    linked: null,
    role_id: null,
    is_email_verified: null,
    masked: false,
    ...o,
  };
}
