import { z } from 'zod';
import { AMOUNT_STEP, LotOption, dec, type Category, type Decimal } from '@platform/domain';
import { fieldError } from '../../lib/errors.ts';
import type { SettingRow } from '../settings/service.ts';

type Settings = Record<string, SettingRow | undefined>;

const DEFAULT_LOTS: LotOption[] = [{ label: 'Standard lot (1)', value: 100000 }];

/** The lot presets staff set (Lot Settings), in their order; the standard lot when none or malformed. */
export function lotPresets(s: Settings): LotOption[] {
  try {
    const parsed = z.array(LotOption).safeParse(JSON.parse(s.lotSelector?.value1 ?? '[]'));
    if (parsed.success && parsed.data.length) return parsed.data;
  } catch {
    // A malformed preset list falls back to the standard lot rather than breaking the order dialog.
  }
  return DEFAULT_LOTS;
}

/** Whether a category's order size is picked from the lot presets or typed as an amount (lot_{category}). */
export const lotModeOf = (s: Settings, category: Category): 'lot' | 'amount' =>
  s[`lot_${category}`]?.value1 === 'lot' ? 'lot' : 'amount';

/**
 * The smallest size of a category and the step sizes go by, as the order dialog offers them: in lot mode the
 * smallest preset (sizes are whole numbers of it), in amount mode the category's amount step (1,000 units of forex,
 * 0.01 of crypto, 1 of the others).
 */
export function sizeRuleOf(s: Settings, category: Category): { min: Decimal; step: Decimal } {
  const smallest =
    lotModeOf(s, category) === 'lot'
      ? lotPresets(s).reduce((m, p) => (dec(p.value).lt(m) ? dec(p.value) : m), dec(lotPresets(s)[0].value))
      : dec(AMOUNT_STEP[category]);
  return { min: smallest, step: smallest };
}

/**
 * A partial close's amount under the lot settings: at least the smallest size, a whole number of steps, and what stays
 * open at least the smallest size too (a position below it could no longer be cut). 400 with a message otherwise.
 * The caller has already sent the whole amount (or more) elsewhere.
 */
export function checkPartSize(rule: { min: Decimal; step: Decimal }, position: Decimal, part: Decimal): void {
  if (part.lt(rule.min)) throw fieldError('amount', `The smallest amount you can close is ${rule.min.toString()}.`);
  if (!part.mod(rule.step).isZero()) throw fieldError('amount', `Close a multiple of ${rule.step.toString()}.`);
  if (position.minus(part).lt(rule.min)) {
    const most = position.minus(rule.min).div(rule.step).floor().times(rule.step);
    throw fieldError(
      'amount',
      most.lt(rule.min)
        ? `This position can only be closed whole: what stays open must be at least ${rule.min.toString()}.`
        : `At least ${rule.min.toString()} must stay open: close at most ${most.toString()}, or the whole position.`,
    );
  }
}
