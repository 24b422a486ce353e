// A Vitest reporter that writes the run's unhandled errors (a rejection nobody caught, a timer firing
// after its file ended) to VITEST_UNHANDLED_FILE. Vitest prints them mid-log, far above the summary; a
// CI log that keeps only its tail would show a red run with every test passed and no reason.
// `npm test` (scripts/test.mjs) prints this file's contents after the summary.
import { writeFileSync } from 'node:fs';

export default class UnhandledErrorsReporter {
  onTestRunEnd(_modules, unhandledErrors) {
    const file = process.env.VITEST_UNHANDLED_FILE;
    if (!file || unhandledErrors.length === 0) return;
    const text = unhandledErrors
      .map((err, i) => {
        const where = err.VITEST_TEST_PATH ?? err.testPath ?? '';
        const test = err.VITEST_TEST_NAME ?? '';
        return [
          `#${i + 1} ${err.name ?? 'Error'}: ${err.message ?? String(err)}`,
          where && `   in ${where}${test ? ` > ${test}` : ''}`,
          (err.stack ?? '').split('\n').slice(1, 12).join('\n'),
        ]
          .filter(Boolean)
          .join('\n');
      })
      .join('\n\n');
    writeFileSync(file, `${text}\n`);
  }
}
