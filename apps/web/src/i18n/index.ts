import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { apiGet, apiPost } from '../api/client.ts';

export const DEFAULT_LANG = 'en';
const STORAGE_KEY = 'lang';

/** The shared i18next instance; keys are the English texts themselves (t('Sign In')). */
export const i18n = i18next.createInstance();

/** Languages whose server bundle has arrived; keys are only reported as missing for those. */
const loaded = new Set<string>();
/** Keys already reported per language, so each missing key is posted once. */
const reported = new Set<string>();
let remote = true;

export function storedLanguage(): string {
  try {
    return localStorage.getItem(STORAGE_KEY) || DEFAULT_LANG;
  } catch {
    return DEFAULT_LANG;
  }
}

async function loadBundle(lng: string): Promise<void> {
  if (!remote || loaded.has(lng)) return;
  try {
    const bundle = await apiGet<Record<string, string>>(`/translations/${encodeURIComponent(lng)}`);
    i18n.addResourceBundle(lng, 'translation', bundle ?? {}, true, true);
    loaded.add(lng);
  } catch (err) {
    // Spec §8: translation load failures are logged only; the English keys stay on screen.
    console.warn(`Could not load translations for ${lng}`, err);
  }
}

function reportMissing(lng: string, key: string): void {
  const id = `${lng}\u0000${key}`;
  if (!remote || !loaded.has(lng) || reported.has(id)) return;
  reported.add(id);
  apiPost(`/translations/${encodeURIComponent(lng)}`, { key }).catch((err: unknown) => {
    console.warn('Could not report a missing translation', err);
  });
}

/**
 * Starts i18next. With `remote` off (tests) nothing is fetched and texts stay English.
 * Rendering does not wait for the bundle: keys are English, so the first paint is already readable.
 */
export function initI18n(options: { remote: boolean } = { remote: true }): Promise<unknown> {
  remote = options.remote;
  const lng = storedLanguage();
  const ready = i18n.use(initReactI18next).init({
    lng,
    fallbackLng: DEFAULT_LANG,
    resources: {},
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    returnEmptyString: false,
    saveMissing: true,
    missingKeyHandler: (_lngs, _ns, key) => reportMissing(i18n.language || lng, key),
    react: { bindI18n: 'languageChanged loaded', bindI18nStore: 'added' },
  });
  document.documentElement.lang = lng;
  void loadBundle(lng);
  return ready;
}

/** Switches language: remembered under localStorage `lang` (spec §1), bundle fetched once. */
export async function setLanguage(lng: string): Promise<void> {
  try {
    localStorage.setItem(STORAGE_KEY, lng);
  } catch {
    // Private mode may refuse storage; the switch still applies to this tab.
  }
  await loadBundle(lng);
  await i18n.changeLanguage(lng);
  document.documentElement.lang = lng;
}
