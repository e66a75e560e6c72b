import { z } from 'zod';
import { AMOUNT_STEP, LOT_UNITS, LotOption, contractSizeOf, dec, type Category, type Decimal } from '@platform/domain';
import { fieldError } from '../../lib/errors.ts';
import type { SettingRow } from '../settings/service.ts';

type Settings = Record<string, SettingRow | undefined>;

const DEFAULT_LOTS: LotOption[] = [{ label: 'Standard lot (1)', value: 100000 }];

/** The lot presets staff set (Lot Settings), in their order; the standard lot when none or malformed. */
export function lotPresets(s: Settings): LotOption[] {
  return parsedPresets(s.lotSelector) ?? DEFAULT_LOTS;
}

/** A stored preset list, or null when none or malformed (which falls back rather than break the order dialog). */
function parsedPresets(row: SettingRow | undefined): LotOption[] | null {
  try {
    const parsed = z.array(LotOption).safeParse(JSON.parse(row?.value1 ?? '[]'));
    if (parsed.success && parsed.data.length) return parsed.data;
  } catch {
    // Malformed JSON reads as none.
  }
  return null;
}

const lots = (...sizes: number[]): LotOption[] => sizes.map((v) => ({ label: `${v} lot`, value: v }));

/** The presets of a category without its own list, in lots: sizes its instruments usually trade in. */
export const DEFAULT_CATEGORY_LOTS: Record<Exclude<Category, 'forex'>, LotOption[]> = {
  commodity: lots(0.01, 0.1, 0.5, 1),
  index: lots(0.1, 1, 5, 10),
  stock: lots(1, 10, 50, 100),
  crypto: lots(0.01, 0.1, 0.5, 1),
};

/** The settings key of a category's own presets (in lots); forex's are the spec's lotSelector (in units). */
export const categoryPresetsKey = (category: Exclude<Category, 'forex'>) => `lotSelector_${category}`;
export const CATEGORY_PRESET_KEYS = (['commodity', 'index', 'stock', 'crypto'] as const).map(categoryPresetsKey);

/** A category's presets, each value in lots: forex's units read as lots of its standard 100,000. */
export function presetsInLots(s: Settings, category: Category): LotOption[] {
  if (category === 'forex')
    return lotPresets(s).map((p) => ({ label: p.label, value: dec(p.value).div(LOT_UNITS.forex).toNumber() }));
  return parsedPresets(s[categoryPresetsKey(category)]) ?? DEFAULT_CATEGORY_LOTS[category];
}

/**
 * The presets the order dialog offers for an instrument: each in units of it (lots × its contract size), with the
 * lots beside. For forex at the standard contract, exactly the spec's lotSelector values.
 */
export function presetsFor(
  s: Settings,
  instrument: { category: Category; contractSize?: string | null },
): Array<LotOption & { lots: number }> {
  const size = contractSizeOf(instrument);
  return presetsInLots(s, instrument.category).map((p) => ({
    label: p.label,
    value: dec(p.value).times(size).toNumber(),
    lots: p.value,
  }));
}

/** Whether a category's order size is picked from the lot presets or typed as an amount (lot_{category}). */
export const lotModeOf = (s: Settings, category: Category): 'lot' | 'amount' =>
  s[`lot_${category}`]?.value1 === 'lot' ? 'lot' : 'amount';

/**
 * The smallest size of an instrument and the step sizes go by, as the order dialog offers them: in lot mode the
 * smallest preset in units of the instrument (sizes are whole numbers of it), in amount mode the category's amount
 * step (1,000 units of forex, 0.01 of crypto, 1 of the others).
 */
export function sizeRuleOf(
  s: Settings,
  instrument: { category: Category; contractSize?: string | null },
): { min: Decimal; step: Decimal } {
  const smallest =
    lotModeOf(s, instrument.category) === 'lot'
      ? presetsFor(s, instrument).reduce((m, p) => (dec(p.value).lt(m) ? dec(p.value) : m), dec(Infinity))
      : dec(AMOUNT_STEP[instrument.category]);
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
