import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { snap } from '../support/browser.ts';
import { signInAs, useJourney } from '../support/pages.ts';

/**
 * Every client screen and the built back-office screens at the sizes people use (a laptop, a small laptop, a
 * phone): nothing makes the page scroll sideways, every table's last column can be reached inside its own scroll
 * box, empty-state texts are on screen, and the trading dashboard fits the window on wide screens. Screenshots of
 * each land in e2e/artifacts (layout-*) for people to look at.
 */
const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];
const CLIENT_SCREENS = [
  '/dashboard',
  '/deposits',
  '/withdraws',
  '/kyc',
  '/pricing',
  '/profile',
  '/security',
  '/statements',
];
const ADMIN_SCREENS = [
  '/admin/instruments/forex',
  '/admin/spreads',
  '/admin/lots',
  '/admin/apis',
  '/admin/status/api',
  '/admin/users',
  '/admin/mail',
  '/admin/deposits',
  '/admin/withdraws/pending',
  '/admin/withdraws/history',
  '/admin/withdraws/settings',
  '/admin/gateways',
  '/admin/gateways/manual',
  '/admin/externalPayments',
  '/admin/kyc',
  '/admin/pricing',
];
const EMPTY_TEXTS = /^(No data found|No open positions|No positions yet|No instruments)$/;

interface LayoutReport {
  overflowX: number;
  overflowY: number;
  cutTables: string[];
  hiddenEmpty: string[];
}

/** Measures the page as it is on screen. */
function measure(page: Page): Promise<LayoutReport> {
  return page.evaluate((emptySource) => {
    const empty = new RegExp(emptySource);
    const doc = document.documentElement;
    const cutTables: string[] = [];
    for (const table of Array.from(document.querySelectorAll('table'))) {
      const last = table.querySelector('thead tr')?.lastElementChild as HTMLElement | null;
      if (!last || !last.offsetParent) continue;
      // The nearest box that scrolls sideways (the table's scroll container); without one the page must hold it.
      let box: HTMLElement | null = table.parentElement;
      while (box && box !== document.body && !['auto', 'scroll'].includes(getComputedStyle(box).overflowX))
        box = box.parentElement;
      const label = (last.textContent ?? '').trim() || '(last column)';
      if (!box || box === document.body) {
        if (last.getBoundingClientRect().right > doc.clientWidth + 1)
          cutTables.push(`${label}: the table is wider than the page`);
      } else if (box.getBoundingClientRect().right > doc.clientWidth + 1) {
        cutTables.push(`${label}: its scroll box reaches past the page`);
      } else if (last.getBoundingClientRect().right - box.getBoundingClientRect().left > box.scrollWidth + 1) {
        cutTables.push(`${label}: cut inside its scroll box`);
      }
    }
    const hiddenEmpty: string[] = [];
    for (const el of Array.from(document.querySelectorAll('p, div, span'))) {
      const text = el.textContent?.trim() ?? '';
      if (!empty.test(text) || el.children.length > 0) continue;
      // Where the glyphs themselves are, clipped by the box that scrolls them and by the window.
      const range = document.createRange();
      range.selectNodeContents(el);
      const r = range.getBoundingClientRect();
      let left = 0;
      let right = doc.clientWidth;
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== 'visible') {
          const box = a.getBoundingClientRect();
          left = Math.max(left, box.left);
          right = Math.min(right, box.right);
        }
      }
      const visible = r.width > 0 && r.left >= left - 1 && r.right <= right + 1;
      const color = getComputedStyle(el).color;
      if (!visible || color === 'rgba(0, 0, 0, 0)')
        hiddenEmpty.push(
          `${text} (text ${Math.round(r.left)}–${Math.round(r.right)}, box ${Math.round(left)}–${Math.round(right)})`,
        );
    }
    return {
      overflowX: doc.scrollWidth - doc.clientWidth,
      overflowY: doc.scrollHeight - doc.clientHeight,
      cutTables,
      hiddenEmpty,
    };
  }, EMPTY_TEXTS.source);
}

describe('layout at laptop and phone sizes', () => {
  const j = useJourney({ MARKET_HOURS: 'open' });

  for (const vp of VIEWPORTS) {
    it(`fits ${vp.width}×${vp.height}: no sideways page scroll, tables reachable, empty states visible`, async () => {
      const problems: string[] = [];
      for (const [email, screens] of [
        ['client@demo.test', CLIENT_SCREENS],
        ['admin@demo.test', ADMIN_SCREENS],
      ] as const) {
        const page = await j.reopen();
        await page.setViewportSize(vp);
        await signInAs(page, email);
        for (const path of screens) {
          await page.goto(path);
          await page.getByRole('banner').waitFor();
          // Lists and prices settle: no request of the page left in flight.
          await page.waitForLoadState('networkidle');
          const r = await measure(page);
          const where = `${path} at ${vp.width}px`;
          if (r.overflowX > 0) problems.push(`${where}: page scrolls sideways by ${r.overflowX}px`);
          for (const c of r.cutTables) problems.push(`${where}: last column "${c}" cannot be reached`);
          for (const e of r.hiddenEmpty) problems.push(`${where}: empty state "${e}" is not on screen`);
          if (path === '/dashboard' && vp.width >= 1280 && r.overflowY > 0)
            problems.push(`${where}: the dashboard scrolls by ${r.overflowY}px`);
          await snap(page, `layout-${vp.width}${path.replace(/\//g, '_')}`);
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
