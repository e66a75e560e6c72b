import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LANG } from '../../i18n/index.ts';
import { MenuOnUse } from './MenuOnUse.tsx';
import { languageTarget } from './menuTargets.tsx';

const loadMenu = () => import('./LanguageMenu.tsx');
const LanguageMenu = lazy(() => loadMenu().then((m) => ({ default: m.LanguageMenu })));

/**
 * The language button of the public pages and the top bar. The menu and its popover code load only when the button
 * is reached for (see MenuOnUse), so the first load of a page stays light.
 */
export function LanguageSwitch() {
  const { i18n, t } = useTranslation();
  return (
    <MenuOnUse
      load={loadMenu}
      target={(on) => languageTarget(i18n.language || DEFAULT_LANG, t('Language'), on)}
      menu={(target) => <LanguageMenu defaultOpened target={target} />}
    />
  );
}
