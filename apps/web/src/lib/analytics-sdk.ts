/**
 * posthog-js behind its own module, imported dynamically by lib/analytics.ts: the SDK becomes its own
 * chunk (analytics-sdk-*.js) that is downloaded only when analytics are configured. Exception
 * autocapture is bundled here rather than fetched from the analytics host at run time
 * (disable_external_dependency_loading; the CSP allows no scripts from there).
 */
import 'posthog-js/dist/exception-autocapture';

export { posthog } from 'posthog-js';
