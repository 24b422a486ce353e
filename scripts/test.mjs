#!/usr/bin/env node
// `npm test`: every test. Vitest runs the unit and integration projects (server suites on PGlite, and
// on PostgreSQL too when TEST_DATABASE_URL is set), then Playwright drives Chromium against the built
// app. Ends with one summary line: "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, '.tmp', 'test-reports');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const args = process.argv.slice(2);
const only = (name) => args.length === 0 || args.includes(name);

const run = (cmd, cmdArgs, env = {}) =>
  spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;
const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);

// "FAIL <file> > <test>" and the first lines of its error, for every failed test or failed file.
const vitestFailures = (result) => {
  const found = [];
  for (const file of result.testResults ?? []) {
    const name = path.relative(root, file.name);
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failedTests) {
      found.push(`FAIL ${name} > ${t.fullName}`);
      const message = (t.failureMessages ?? [])
        .join('\n')
        .split('\n')
        .filter((l) => !l.includes('node_modules'))
        .slice(0, 12);
      for (const l of message) found.push(`    ${l}`);
    }
    // A file can fail outside its tests (a failing import, a beforeAll that throws).
    if (failedTests.length === 0 && file.status === 'failed') {
      found.push(`FAIL ${name} (outside its tests)`);
      for (const l of String(file.message ?? '')
        .split('\n')
        .slice(0, 12))
        found.push(`    ${l}`);
    }
  }
  return found;
};

let passed = 0;
let failed = 0;
let exit = 0;
const lines = [];

if (only('unit')) {
  const report = path.join(out, 'vitest.json');
  const unhandled = path.join(out, 'vitest-unhandled-errors.txt');
  const status = run(
    'npx',
    [
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      '--reporter=./scripts/vitest-unhandled-reporter.mjs',
      `--outputFile.json=${report}`,
    ],
    { VITEST_UNHANDLED_FILE: unhandled },
  );
  const result = readJson(report);
  if (status !== 0) exit = 1;
  if (result) {
    passed += result.numPassedTests;
    failed += result.numFailedTests;
    lines.push(`vitest: ${result.numPassedTests} passed, ${result.numFailedTests} failed`);
    // The run's log is long and often only its tail is kept: name each failure here, where it is read.
    for (const line of vitestFailures(result)) lines.push(line);
    // Vitest also fails a run for errors outside any test (an unhandled rejection, a timer firing
    // after its file ended): every test can pass and the run still be red, so say so here.
    if (status !== 0 && result.numFailedTests === 0) {
      lines.push('vitest: the run failed on errors outside the tests:');
      if (existsSync(unhandled)) lines.push(readFileSync(unhandled, 'utf8').trimEnd());
    }
  } else {
    failed += 1;
    lines.push('vitest: no report (the run did not finish)');
  }
  lines.push(
    `database passes: PGlite${process.env.TEST_DATABASE_URL ? ' and PostgreSQL (TEST_DATABASE_URL)' : ' only (set TEST_DATABASE_URL for PostgreSQL too)'}`,
  );
}

if (only('e2e')) {
  const report = path.join(out, 'playwright.json');
  const status = run('npx', ['playwright', 'test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: report,
  });
  const result = readJson(report);
  if (status !== 0) exit = 1;
  if (result?.stats) {
    passed += result.stats.expected + result.stats.flaky;
    failed += result.stats.unexpected;
    lines.push(
      `playwright (chromium): ${result.stats.expected + result.stats.flaky} passed, ${result.stats.unexpected} failed`,
    );
  } else {
    failed += 1;
    lines.push('playwright: no report (the run did not finish)');
  }
}

console.log(`\n${lines.join('\n')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(exit || (failed > 0 ? 1 : 0));
