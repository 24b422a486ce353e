// A lint rule for the server's module graph: two modules under apps/server/src/modules may not import each
// other, even through different files (import-x/no-cycle only sees cycles between files). Type-only imports
// count too: a module that needs another's types depends on it.
import fs from 'node:fs';
import path from 'node:path';

const IMPORT_SOURCE = /(?:^|\s)(?:import|export)\s[^;]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g;

/** `{ modulesDir, name }` when the file lies in a module, otherwise undefined. */
function moduleOf(file) {
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf('modules');
  if (at < 2 || parts[at - 1] !== 'src' || parts.length < at + 3) return undefined;
  return { modulesDir: parts.slice(0, at + 1).join(path.sep), name: parts[at + 1] };
}

function isTestFile(file) {
  return /\.test(-helpers)?\.tsx?$/.test(file);
}

/** The other modules a file imports, by name. */
function importedModules(file, source) {
  const own = moduleOf(file);
  const names = new Set();
  for (const match of source.matchAll(IMPORT_SOURCE)) {
    const spec = match[1] ?? match[2];
    if (!spec?.startsWith('.')) continue;
    const target = moduleOf(path.resolve(path.dirname(file), spec));
    if (target && own && target.modulesDir === own.modulesDir && target.name !== own.name)
      names.add(target.name);
  }
  return names;
}

// One scan per module per lint run; an editor's long-lived ESLint rescans after a few seconds.
const dependenciesCache = new Map();
const CACHE_MS = 5_000;

/** Every module that a module's non-test files import. */
function dependenciesOf(modulesDir, name) {
  const key = path.join(modulesDir, name);
  const cached = dependenciesCache.get(key);
  if (cached && Date.now() - cached.at < CACHE_MS) return cached.found;
  const found = new Set();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !isTestFile(full)) {
        for (const dependency of importedModules(full, fs.readFileSync(full, 'utf8'))) found.add(dependency);
      }
    }
  };
  if (fs.existsSync(key)) walk(key);
  dependenciesCache.set(key, { at: Date.now(), found });
  return found;
}

const noModuleCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid two server modules from importing each other.' },
    schema: [],
    messages: {
      cycle:
        'Modules "{{from}}" and "{{to}}" import each other ({{to}} imports {{from}} too). Let one depend on the other, or move what both need out of both.',
    },
  },
  create(context) {
    const file = context.physicalFilename;
    const own = moduleOf(file);
    if (!own || isTestFile(file)) return {};
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = moduleOf(path.resolve(path.dirname(file), spec));
      if (!target || target.modulesDir !== own.modulesDir || target.name === own.name) return;
      if (dependenciesOf(own.modulesDir, target.name).has(own.name)) {
        context.report({ node: node.source, messageId: 'cycle', data: { from: own.name, to: target.name } });
      }
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default { meta: { name: 'lumina' }, rules: { 'no-module-cycle': noModuleCycle } };
