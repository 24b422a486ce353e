import { useTranslation } from 'react-i18next';
import { themeStore, useTheme } from '@/stores/theme';
import { MoonIcon, SunIcon } from '@/components/ui/icons';

export function ThemeToggle() {
  const { t } = useTranslation();
  const theme = useTheme((s) => s.theme);
  const dark = theme === 'dark';
  return (
    <button
      type="button"
      onClick={() => themeStore.getState().toggle()}
      aria-label={dark ? t('theme.switchToLight') : t('theme.switchToDark')}
      title={t('theme.toggle')}
      aria-pressed={dark}
      data-testid="theme-toggle"
      className="inline-flex size-10 items-center justify-center rounded-xl text-xl text-zinc-600 transition-colors hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-white"
    >
      {dark ? <SunIcon /> : <MoonIcon />}
    </button>
  );
}
