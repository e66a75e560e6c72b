import { useHotkeys, type HotkeyItem } from '@mantine/hooks';
import type { Side } from '@platform/domain';

/**
 * The terminal's keyboard (see the "?" overlay): F9 a new order, B / S buy / sell, Up / Down the instrument list, "?"
 * the list of keys. Mantine's useHotkeys leaves alone keys pressed with a modifier the hotkey does not name (Ctrl,
 * Meta, Alt) and keys typed in a textarea, a select or editable text; here also in a text input (a checkbox or a
 * switch that was just clicked keeps the keys working), while a dialog is open (Esc is the dialog's own) and inside a
 * popover.
 */

/** A Mantine modal (the order dialog, stop-loss, partial close, the shortcuts overlay...) is open. */
export const dialogOpen = (): boolean => document.querySelector('[aria-modal="true"]') !== null;

/** Widgets that move with the arrow keys themselves: arrows pressed on them are theirs. */
const ARROW_OWNERS = [
  'menu',
  'menubar',
  'menuitem',
  'listbox',
  'option',
  'tablist',
  'tab',
  'slider',
  'separator',
  'radiogroup',
  'radio',
  'grid',
  'tree',
  'combobox',
  'spinbutton',
]
  .map((role) => `[role="${role}"]`)
  .join(',');

/** Inputs that take no typing: the keys keep working when one of them has the focus. */
const UNTYPED_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'color', 'file', 'image']);

/** Whether the key is typed into a field (Mantine checks textareas, selects and editable text itself). */
const typing = (event: KeyboardEvent): boolean =>
  event.target instanceof HTMLInputElement && !UNTYPED_INPUTS.has(event.target.type);

/** Mantine's own list without INPUT, which `typing` checks by type. */
const IGNORED_TAGS = ['TEXTAREA', 'SELECT'];

const within = (event: KeyboardEvent, selector: string): boolean =>
  event.target instanceof Element && event.target.closest(selector) !== null;

/**
 * A hotkey that runs `handler` unless a dialog is open or the key was pressed inside a popover (or, for an arrow, on a
 * widget that uses the arrows itself). Only a key the terminal acts on is kept from the page: an arrow still scrolls
 * a dialog, a menu or the page when the terminal does nothing with it (`handler` answers false).
 */
function key(hotkey: string, handler: () => boolean | undefined, arrows = false): HotkeyItem {
  return [
    hotkey,
    (event) => {
      if (typing(event) || dialogOpen() || within(event, '[role="dialog"]')) return;
      if (arrows && within(event, ARROW_OWNERS)) return;
      if (handler() !== false) event.preventDefault();
    },
    { preventDefault: false },
  ];
}

export interface TerminalKeys {
  /** F9: a new order for the selected instrument. */
  onNewOrder: () => void;
  /** B / S: the order dialog on buy / sell for the selected instrument. */
  onTrade: (side: Side) => void;
  /** "?": the overlay listing the keys. */
  onHelp: () => void;
}

/** F9, B, S and "?" on the dashboard. */
export function useTerminalKeys({ onNewOrder, onTrade, onHelp }: TerminalKeys): void {
  useHotkeys(
    [
      key('F9', () => void onNewOrder()),
      key('b', () => void onTrade('buy')),
      key('s', () => void onTrade('sell')),
      // "?" is Shift+/ on most layouts; a few type it without Shift.
      key('shift+?', () => void onHelp()),
      key('?', () => void onHelp()),
    ],
    IGNORED_TAGS,
  );
}

/**
 * Up / Down through a list (the instrument list). `onMove` answers false when it did nothing (an empty list), so the
 * arrow still scrolls the page.
 */
export function useArrowKeys(onMove: (step: 1 | -1) => boolean): void {
  useHotkeys([key('ArrowUp', () => onMove(-1), true), key('ArrowDown', () => onMove(1), true)], IGNORED_TAGS);
}
