import { ADMIN_MENU, STAFF_ROLES, rolesForScreen, type MenuItem } from '@platform/domain';

/** Paths compare without a trailing slash so '/admin/users/' is the same screen as '/admin/users'. */
export function normalizePath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

/** The customer edit screen is reached from lists and from every staff member's Profile item. */
const CUSTOMER_EDIT = /^\/admin\/customers\/edit\/[^/]+$/;

/** Every route the menu names directly: a sub-page match never wins over an item of its own. */
const MENU_ROUTES = new Set(ADMIN_MENU.flatMap((s) => s.items.flatMap((i) => [i.to, ...(i.also ?? [])])));

/** True when the menu item is the one to highlight for this path (its route, a tab of it, or a sub-page). */
export function isItemActive(item: MenuItem, pathname: string): boolean {
  const path = normalizePath(pathname);
  if (item.to === path || item.also?.includes(path)) return true;
  // '/admin' and '/affiliate' prefix every other screen; only an exact match selects them.
  if (item.to === '/admin' || item.to === '/affiliate') return false;
  // /admin/gateways/manual is its own item, not a sub-page of /admin/gateways.
  if (MENU_ROUTES.has(path)) return false;
  return path.startsWith(item.to + '/') && !CUSTOMER_EDIT.test(path);
}

export type ScreenAccess = 'allowed' | 'denied' | 'unknown';

/** Whether a role may open a back-office path, from the shared permission map (domain menu). */
export function screenAccess(roleId: number, pathname: string): ScreenAccess {
  const path = normalizePath(pathname);
  if (CUSTOMER_EDIT.test(path)) return (STAFF_ROLES as readonly number[]).includes(roleId) ? 'allowed' : 'denied';
  const roles = rolesForScreen(path) as readonly number[];
  if (roles.length === 0) return 'unknown';
  return roles.includes(roleId) ? 'allowed' : 'denied';
}

const capitalize = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/**
 * The English title of a screen (translated where shown). Screens that take a type in their path
 * are titled from it as the spec says: "{type} Trades", "{type} Customers", the instrument category,
 * the language code of the translations editor.
 */
export function screenTitle(pathname: string): { title: string; translate: boolean } {
  const path = normalizePath(pathname);
  // A language code is shown as it is, not looked up as a text.
  if (/^\/admin\/languages\/[^/]+$/.test(path)) return { title: path.split('/')[3], translate: false };
  return { title: englishTitle(path), translate: true };
}

function englishTitle(pathname: string): string {
  const path = normalizePath(pathname);
  const parts = path.split('/');
  if (CUSTOMER_EDIT.test(path)) return 'Edit Customer';
  if (parts[1] === 'admin' && parts.length === 4) {
    const type = parts[3];
    if (parts[2] === 'trades') return type === 'pending' ? 'Pending Orders' : `${capitalize(type)} Trades`;
    if (parts[2] === 'customers') return `${capitalize(type)} Customers`;
    if (parts[2] === 'instruments') return capitalize(type);
  }
  for (const section of ADMIN_MENU)
    for (const item of section.items) if (item.to === path || item.also?.includes(path)) return item.label;
  for (const section of ADMIN_MENU) for (const item of section.items) if (isItemActive(item, path)) return item.label;
  return '';
}
