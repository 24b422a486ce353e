import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from '@/app/provider';
import { AppRouter } from '@/app/router';
import { i18n, initI18n } from '@/lib/i18n';
import { startSession } from '@/lib/auth';
import { applyThemeToDocument, themeStore } from '@/stores/theme';
import './styles.css';

themeStore.getState().init();
applyThemeToDocument(themeStore);

i18n.on('languageChanged', (lng) => document.documentElement.setAttribute('lang', lng));
void initI18n();
void startSession();

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <AppProvider>
      <AppRouter />
    </AppProvider>
  </StrictMode>,
);
