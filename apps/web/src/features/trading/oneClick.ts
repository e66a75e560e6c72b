import { useSyncExternalStore } from 'react';

/** One-click trading is remembered per browser, off unless the trader turned it on and confirmed. */
export const ONE_CLICK_KEY = 'oneClickTrading';
/** The amount last sent per instrument, which one-click orders reuse. */
export const LAST_AMOUNT_KEY = 'lastOrderAmount';

const listeners = new Set<() => void>();
const notify = () => {
  for (const l of listeners) l();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  // Another tab of the same browser switching it follows here too.
  const onStorage = (e: StorageEvent) => {
    if (e.key === ONE_CLICK_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
};

const read = (key: string): string | null => {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
};
const write = (key: string, value: string | null) => {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Private windows may refuse storage: the setting then lasts for the page only.
  }
};

export function isOneClickOn(): boolean {
  return read(ONE_CLICK_KEY) === 'on';
}

export function setOneClick(on: boolean): void {
  write(ONE_CLICK_KEY, on ? 'on' : null);
  notify();
}

/** Whether one-click trading is on in this browser, following every change. */
export function useOneClick(): boolean {
  return useSyncExternalStore(subscribe, isOneClickOn, () => false);
}

function amounts(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(read(LAST_AMOUNT_KEY) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** The amount last sent for an instrument from this browser, or null. */
export function lastAmount(instrument: string): string | null {
  const v = amounts()[instrument];
  return typeof v === 'string' && /^\d+(\.\d{1,8})?$/.test(v) && Number(v) > 0 ? v : null;
}

export function rememberAmount(instrument: string, amount: string): void {
  write(LAST_AMOUNT_KEY, JSON.stringify({ ...amounts(), [instrument]: amount }));
}
