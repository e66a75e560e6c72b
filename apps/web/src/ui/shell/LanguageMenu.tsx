import type { ReactElement } from 'react';
import { Menu } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useBranding } from '../../api/hooks.ts';
import { DEFAULT_LANG, setLanguage } from '../../i18n/index.ts';
import { languageTarget } from './menuTargets.tsx';

export interface LanguageMenuProps {
  defaultOpened?: boolean;
  /** The button (ui/shell/LanguageSwitch.tsx draws the same one before this menu has loaded). */
  target?: ReactElement;
}

/** Language dropdown; the languages come from branding.appLangs, the choice is kept in localStorage `lang`. */
export function LanguageMenu({ defaultOpened = false, target }: LanguageMenuProps) {
  const { i18n, t } = useTranslation();
  const { data } = useBranding();
  const langs = data?.appLangs?.length ? data.appLangs : [{ name: 'English', code: DEFAULT_LANG }];
  const current = langs.find((l) => l.code === i18n.language) ?? langs.find((l) => l.code === DEFAULT_LANG) ?? langs[0];
  return (
    <Menu position="bottom-end" withinPortal shadow="md" defaultOpened={defaultOpened}>
      <Menu.Target>{target ?? languageTarget(current.code, t('Language'))}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('Language')}</Menu.Label>
        {langs.map((l) => (
          <Menu.Item
            key={l.code}
            onClick={() => void setLanguage(l.code)}
            rightSection={l.code === current.code ? <IconCheck size={14} /> : null}
          >
            {l.name}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
