// Reads one era's results (the suite's `-o` folder: one `server-<scenario>-<time>/checks.json` a
// scenario) and prints the summary line CI shows, judging every scenario the era ran against the
// baseline — the ones the suite scores and the ones it runs without scoring (extensions, pending)
// alike, so a regression in, say, http-header-validation fails CI too. Exit 1 on a failure of an
// applicable scenario or check, a stale baseline entry, or a required scenario that did not run.
//
//   node summarize.mjs <era> <results-dir> <baseline.yml> <requirements.yml> <node_modules>
//
// A check fails as the suite counts it: FAILURE or WARNING; a check id repeated in a scenario
// counts once, most severe first. A baseline entry `scenario` excuses the whole scenario,
// `scenario:check-id` that one check.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const [era, resultsDir, baselinePath, requirementsPath, nodeModules] = process.argv.slice(2);
const { parse } = createRequire(path.join(nodeModules, 'noop.js'))('yaml');

const baseline = parse(readFileSync(baselinePath, 'utf8'))?.server ?? [];
const wholesale = new Set(baseline.filter((e) => !e.includes(':')));
const perCheck = new Map();
for (const entry of baseline.filter((e) => e.includes(':'))) {
  const [scenario, check] = [entry.slice(0, entry.indexOf(':')), entry.slice(entry.indexOf(':') + 1)];
  perCheck.set(scenario, (perCheck.get(scenario) ?? new Set()).add(check));
}

const requirements = parse(readFileSync(requirementsPath, 'utf8'));
const scored = new Set(requirements.server ?? []);
const unscored = new Map(
  (requirements.not_scored ?? []).filter((e) => e.leg === 'server').map((e) => [e.scenario, e.reason]),
);

const severity = { FAILURE: 3, WARNING: 2, SUCCESS: 1 };
const failed = (status) => status === 'FAILURE' || status === 'WARNING';

const results = new Map();
for (const dir of readdirSync(resultsDir)) {
  const match = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(dir);
  const file = path.join(resultsDir, dir, 'checks.json');
  if (match && existsSync(file)) results.set(match[1], JSON.parse(readFileSync(file, 'utf8')));
}

const problems = [];
for (const scenario of [...scored, ...unscored.keys()]) {
  if (!results.has(scenario)) problems.push(`${scenario}: did not run (no results)`);
}

// Two tallies: the scenarios the suite scores for the era, and those it runs without scoring.
const tally = () => ({
  passed: 0, partly: 0, notApplicable: 0, skipped: 0,
  checks: { passed: 0, failed: 0, notApplicable: 0 },
});
const tallies = { scored: tally(), unscored: tally() };
const notApplicable = [];
for (const [scenario, list] of [...results].sort(([a], [b]) => a.localeCompare(b))) {
  const t = scored.has(scenario) ? tallies.scored : tallies.unscored;
  const tag = scored.has(scenario) ? '' : ` (not scored by the suite: ${unscored.get(scenario) ?? 'not required'})`;
  // collapse repeated ids, most severe first (INFO and SKIPPED say nothing)
  const verdict = new Map();
  for (const c of list) {
    if (!(c.status in severity)) continue;
    const seen = verdict.get(c.id);
    if (!seen || severity[c.status] > severity[seen]) verdict.set(c.id, c.status);
  }
  const failing = [...verdict].filter(([, s]) => failed(s)).map(([id]) => id);
  if (verdict.size === 0 && !wholesale.has(scenario) && !perCheck.has(scenario)) {
    // every check SKIPPED by the suite itself (tasks-status-notifications awaits a rewrite)
    t.skipped += 1;
    continue;
  }
  if (wholesale.has(scenario)) {
    if (failing.length === 0) problems.push(`${scenario}: passes, so its baseline entry is stale: remove it`);
    else {
      t.notApplicable += 1;
      t.checks.notApplicable += failing.length;
      notApplicable.push(scenario + tag);
    }
    continue;
  }
  const excused = perCheck.get(scenario) ?? new Set();
  for (const id of failing) {
    if (excused.has(id)) t.checks.notApplicable += 1;
    else {
      t.checks.failed += 1;
      const detail = list.find((c) => c.id === id && failed(c.status))?.errorMessage ?? '';
      problems.push(`${scenario}:${id} failed${tag}: ${detail.slice(0, 300)}`);
    }
  }
  for (const id of excused) {
    if (verdict.get(id) === 'SUCCESS') problems.push(`${scenario}:${id}: passes, so its baseline entry is stale: remove it`);
  }
  t.checks.passed += [...verdict.values()].filter((s) => s === 'SUCCESS').length;
  if (failing.some((id) => !excused.has(id))) continue;
  // the scenario's own checks, without the wire-schema checks every scenario gets
  const own = [...verdict].filter(([id]) => !id.startsWith('wire-schema-'));
  if (failing.length === 0) t.passed += 1;
  else if (own.some(([, s]) => s === 'SUCCESS')) {
    t.partly += 1;
    notApplicable.push(`${scenario}: ${failing.join(', ')}${tag}`);
  } else {
    t.notApplicable += 1;
    notApplicable.push(scenario + tag);
  }
}

const line = (t) => {
  const inPart = t.partly > 0 ? ` (${t.partly} of them with some checks not applicable)` : '';
  const skipped = t.skipped > 0 ? `, ${t.skipped} skipped by the suite itself` : '';
  return `${t.passed + t.partly} scenarios passed${inPart}, ${t.notApplicable} not applicable${skipped}`;
};
const checkLine = (c) => `checks: ${c.passed} passed, ${c.failed} failed, ${c.notApplicable} not applicable`;
const listed = baselinePath.replace(/^.*\/(scripts\/)/, '$1');
console.log(
  `conformance ${era}: ${line(tallies.scored)} (listed in ${listed}), of the ${scored.size} the suite ` +
    `requires for ${era}; ${checkLine(tallies.scored.checks)}`,
);
const u = tallies.unscored;
if (u.passed + u.partly + u.notApplicable + u.skipped > 0) {
  console.log(
    `  and of those it runs for ${era} without scoring (extensions, pending): ${line(u)}; ${checkLine(u.checks)}`,
  );
}
if (process.env.CONFORMANCE_VERBOSE) for (const line of notApplicable) console.log(`  not applicable: ${line}`);
for (const problem of problems) console.log(`  FAIL ${problem}`);
process.exit(problems.length > 0 ? 1 : 0);
