import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLOSE_REASON_LABELS, OrderType, PENDING_KINDS } from '@platform/domain';
import { ORDER_CHOICES, pendingPriceHint } from '../features/trading/orderKinds.ts';
import { expiryText, STATUS_LABELS } from '../features/trading/pendingFormat.ts';

/**
 * The texts of these folders are shipped in every language: each key a `t('…')` of their sources names, and each
 * English text they translate from data (labels, hints, the server's answers), has an entry in every language's
 * locale files (apps/server/src/db/seed/locales/{area}.{code}.json). A folder whose texts are all shipped can join.
 */
const COVERED = [
  'features/trading',
  'features/admin/trades',
  'features/admin/risk',
  'features/admin/approvals',
  'app/layouts/topbar',
  'ui/responsive-list',
  'ui/data-table',
  'features/account',
  'features/two-factor',
  'features/admin/operations',
  'features/partners',
  'features/admin/partners',
];

/** The server's success answers the terminal shows through t(). */
const SERVER_MESSAGES = [
  'Order Placed Successfully',
  'Order Closed Successfully',
  'Part of the position closed',
  'Order Modified Successfully',
  'Order Cancelled Successfully',
  'Orders Linked Successfully',
  'Alert Created Successfully',
  'Alert Updated Successfully',
  'Alert Deleted Successfully',
  // The Security page: re-authentication (ReauthDialog) and the sign-in history's results (SessionsCards).
  'Please enter your password again to continue.',
  'The password is not right.',
  'The code is not right. Try the current one.',
  'Signed in',
  'Wrong password',
  'Wrong code',
  'Refused',
  'Locked',
  'Session signed out',
];

const src = path.resolve(import.meta.dirname, '..');
const localesDir = path.resolve(src, '../../server/src/db/seed/locales');

function shipped(): Map<string, Set<string>> {
  const byLanguage = new Map<string, Set<string>>();
  for (const file of fs.readdirSync(localesDir)) {
    const code = /\.([a-z]{2,3}(?:-[A-Za-z]+)?)\.json$/.exec(file)?.[1];
    if (!code) continue;
    const keys = byLanguage.get(code) ?? new Set<string>();
    for (const key of Object.keys(JSON.parse(fs.readFileSync(path.join(localesDir, file), 'utf8')))) keys.add(key);
    byLanguage.set(code, keys);
  }
  return byLanguage;
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$|testing\.tsx?$|fixtures\.ts$/.test(e.name) ? [p] : [];
  });
}

/** The literal keys of `t('…')` and `t("…")` calls (a key in a variable is listed by the data below). */
function literalKeys(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/\bt\(\s*(['"])((?:\\.|(?!\1).)*)\1/g)].map((m) => m[2].replace(/\\(['"])/g, '$1'));
}

/** Texts the screens translate from data rather than from a literal. */
function dataKeys(): string[] {
  const prices = { bid: 1, ask: 1.1 };
  const hints = OrderType.options.flatMap((side) =>
    PENDING_KINDS.flatMap((kind) =>
      ['', '0.5', '2'].flatMap((price) =>
        ['', '0.4', '3'].flatMap((limit) =>
          [false, true].map((activated) => pendingPriceHint(side, kind, prices, price, limit, activated)?.text),
        ),
      ),
    ),
  );
  const expiries = (['gtc', 'day', 'date'] as const).flatMap((expiry) => {
    const e = expiryText({ expiry, expires_at: null });
    return [e.label, e.title];
  });
  return [
    ...ORDER_CHOICES.map((c) => c.label),
    ...Object.values(STATUS_LABELS),
    ...Object.values(CLOSE_REASON_LABELS),
    ...expiries,
    ...hints.filter((h): h is string => h !== undefined),
    ...SERVER_MESSAGES,
  ];
}

describe('shipped translations', () => {
  it('have every text of the trading terminal, its top bar, the data tables, the staff trade lists, the risk desk and the Security page in every language', () => {
    const languages = shipped();
    expect([...languages.keys()].sort()).toEqual(expect.arrayContaining(['en', 'es', 'fr']));
    const keys = new Set([...COVERED.flatMap((d) => sources(path.join(src, d)).flatMap(literalKeys)), ...dataKeys()]);
    expect(keys.size).toBeGreaterThan(150);
    const missing = [...languages].flatMap(([code, have]) =>
      [...keys].filter((k) => !have.has(k)).map((k) => `${code}: ${k}`),
    );
    expect(missing).toEqual([]);
  });
});
