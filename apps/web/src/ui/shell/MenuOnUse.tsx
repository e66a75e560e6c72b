import { Suspense, useState, type ReactElement, type ReactNode } from 'react';

/** What the plain button of a menu not loaded yet listens to. */
export interface TargetHandlers {
  onPointerEnter?: () => void;
  onFocus?: () => void;
  onClick?: () => void;
}

export interface MenuOnUseProps {
  /** Loads the menu's module (the same promise each time: a dynamic import). */
  load: () => Promise<unknown>;
  /** The menu's button, drawn the same before and after the menu has loaded. */
  target: (on: TargetHandlers) => ReactElement;
  /** The loaded menu, opened, around the given button. */
  menu: (target: ReactElement) => ReactNode;
}

/**
 * A top-bar menu whose code (the menu, its popover and their positioning) loads when first reached for, not with the
 * page: the button shows at once, pointing at it or focusing it starts the load, and a click opens the menu as soon
 * as it has arrived (at once when the pointer got there first).
 */
export function MenuOnUse({ load, target, menu }: MenuOnUseProps) {
  const [wanted, setWanted] = useState(false);
  const preload = () => void load();
  const plain = target({ onPointerEnter: preload, onFocus: preload, onClick: () => setWanted(true) });
  if (!wanted) return plain;
  return <Suspense fallback={plain}>{menu(target({}))}</Suspense>;
}
