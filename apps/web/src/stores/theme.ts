import { z } from 'zod';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { persist, type PersistStorage, type StorageValue } from 'zustand/middleware';
import { useStore } from 'zustand';
import { THEME_STORAGE_KEY } from '@lumina/contracts';

export type Theme = 'light' | 'dark';

export interface ThemeState {
  theme: Theme;
  /** True until the saved or system preference has been read. */
  loading: boolean;
  /** True once the person has chosen a theme (saved under `theme-storage`); system changes are then ignored. */
  saved: boolean;
  /** Reads the saved preference, else the system one, and starts following system changes. Idempotent. */
  init: () => void;
  toggle: () => void;
}

type Persisted = { theme: Theme };

const PersistedSchema = z.object({
  state: z.object({ theme: z.enum(['light', 'dark']) }),
  version: z.number().optional(),
});

const DARK_QUERY = '(prefers-color-scheme: dark)';

export interface ThemeEnvironment {
  storage: () => Storage | undefined;
  matchMedia: (query: string) => MediaQueryList | undefined;
}

const browserEnvironment: ThemeEnvironment = {
  storage: () => (typeof localStorage === 'undefined' ? undefined : localStorage),
  matchMedia: (query) => (typeof matchMedia === 'undefined' ? undefined : matchMedia(query)),
};

/** Only an explicit choice is written; an unreadable or malformed entry counts as nothing saved. */
function themeStorage(env: ThemeEnvironment): PersistStorage<Partial<Persisted>> {
  return {
    getItem(name) {
      try {
        const raw = env.storage()?.getItem(name);
        if (!raw) return null;
        const parsed = PersistedSchema.safeParse(JSON.parse(raw));
        return parsed.success ? (parsed.data as StorageValue<Persisted>) : null;
      } catch {
        return null;
      }
    },
    setItem(name, value) {
      if (!value.state.theme) return;
      env.storage()?.setItem(name, JSON.stringify(value));
    },
    removeItem(name) {
      env.storage()?.removeItem(name);
    },
  };
}

export function createThemeStore(env: ThemeEnvironment = browserEnvironment) {
  let started = false;
  const store = createStore<ThemeState>()(
    persist(
      (set, get) => ({
        theme: 'light',
        loading: true,
        saved: false,
        init() {
          if (started) return;
          started = true;
          void store.persist.rehydrate();
          const media = env.matchMedia(DARK_QUERY);
          if (!get().saved) set({ theme: media?.matches ? 'dark' : 'light' });
          set({ loading: false });
          media?.addEventListener('change', (event) => {
            if (!get().saved) set({ theme: event.matches ? 'dark' : 'light' });
          });
        },
        toggle() {
          set({ theme: get().theme === 'dark' ? 'light' : 'dark', saved: true, loading: false });
        },
      }),
      {
        name: THEME_STORAGE_KEY,
        storage: themeStorage(env),
        skipHydration: true,
        partialize: (state): Partial<Persisted> => (state.saved ? { theme: state.theme } : {}),
        merge: (persisted, current) => {
          const theme = (persisted as Partial<Persisted> | undefined)?.theme;
          return theme ? { ...current, theme, saved: true } : current;
        },
      },
    ),
  );
  return store;
}

export type ThemeStore = ReturnType<typeof createThemeStore>;

/** Keeps the `dark` class on <html> (Tailwind's dark variant) in step with the store. */
export function applyThemeToDocument(
  store: StoreApi<ThemeState>,
  root: HTMLElement = document.documentElement,
) {
  const apply = ({ theme }: ThemeState) => {
    root.classList.toggle('dark', theme === 'dark');
    root.style.colorScheme = theme;
  };
  apply(store.getState());
  return store.subscribe(apply);
}

/** The app's theme store. */
export const themeStore = createThemeStore();

export function useTheme<T>(selector: (state: ThemeState) => T): T {
  return useStore(themeStore, selector);
}
