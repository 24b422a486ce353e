import { useTranslation } from 'react-i18next';
import { useHealth } from '../api/get-health';

/** A small live indicator of API reachability, shown in the footer. */
export function SystemStatus() {
  const { t } = useTranslation();
  const health = useHealth();
  const state = health.isSuccess ? 'ok' : health.isError ? 'down' : 'checking';
  const dot = { ok: 'bg-emerald-500', down: 'bg-red-500', checking: 'bg-zinc-400 animate-pulse' }[state];
  return (
    <span className="inline-flex items-center gap-2" data-testid="system-status" data-state={state}>
      <span aria-hidden="true" className={`size-2 rounded-full ${dot}`} />
      {t(`footer.status.${state}`)}
    </span>
  );
}
