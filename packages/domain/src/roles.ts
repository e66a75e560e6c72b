/** Role ids as the specification numbers them. */
export const Role = {
  Admin: 1,
  Manager: 2,
  Customer: 3,
  Affiliate: 4,
  SalesAgent: 5,
  RetentionAgent: 6,
} as const;
export type RoleId = (typeof Role)[keyof typeof Role];

export const ALL_ROLES: readonly RoleId[] = [1, 2, 3, 4, 5, 6];
export const STAFF_ROLES: readonly RoleId[] = [1, 2, 4, 5, 6];

export const ROLE_NAMES: Record<RoleId, string> = {
  1: 'Admin',
  2: 'Manager',
  3: 'Customer',
  4: 'Affiliate',
  5: 'Agent',
  6: 'Retention Agent',
};

export function isRoleId(value: unknown): value is RoleId {
  return typeof value === 'number' && (ALL_ROLES as readonly number[]).includes(value);
}

export function isStaff(roleId: number): boolean {
  return roleId !== Role.Customer;
}

/** Top-bar shortcut buttons per role (client-area spec §2, back-office spec §1). */
export const ROLE_SHORTCUTS: Partial<Record<RoleId, { label: string; to: string }>> = {
  1: { label: 'Admin', to: '/admin' },
  2: { label: 'Manager', to: '/admin/trades/all' },
  4: { label: 'Affiliate', to: '/affiliate' },
  5: { label: 'Agent', to: '/admin/crm/sales/all' },
  6: { label: 'Agent', to: '/admin/crm/retention' },
};

/** Where a role lands in the back office (first screen it may open). */
export function staffHome(roleId: number): string {
  return ROLE_SHORTCUTS[roleId as RoleId]?.to ?? '/dashboard';
}
