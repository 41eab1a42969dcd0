/**
 * What the server's thread ran during its event-loop stalls, from a `node --cpu-prof` profile of a
 * bench: a stall is a run of samples with no `(idle)` sample longer than `--stall-ms` (10). Cut by
 * the `profile mark start|end <label> <µs>` lines the bench prints under `--cpu-prof`
 * (`bench/card-auth.ts`), it prints for each load the stalls (count, longest, ms in all) and the
 * functions on the stack during them (inclusive and self ms, each function counted once per sample).
 *
 *   node bench/lib/cpu-profile-stalls.mjs <profile.cpuprofile> <bench-output.txt> [--stall-ms 10] [--top 25]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { 'stall-ms': { type: 'string', default: '10' }, top: { type: 'string', default: '25' } },
});
const [profilePath, marksPath] = positionals;
const stallUs = Number(values['stall-ms']) * 1000;
const top = Number(values.top);
const profile = JSON.parse(readFileSync(profilePath, 'utf8'));
const marks = [...readFileSync(marksPath, 'utf8').matchAll(/^profile mark (start|end) (.+) (\d+)$/gm)].map((m) => ({
  kind: m[1],
  label: m[2],
  us: Number(m[3]),
}));

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const nameOf = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url ? url.replace(/^.*\/(node_modules\/)?/, '') : '';
  return `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
};
const stackCache = new Map();
const stackOf = (id) => {
  let names = stackCache.get(id);
  if (names) return names;
  names = new Set();
  for (let at = id; at !== undefined; at = parentOf.get(at)) names.add(nameOf(byId.get(at)));
  stackCache.set(id, names);
  return names;
};

// Samples on the profile's clock: sample i lasts until sample i + 1.
const samples = [];
let clockUs = profile.startTime;
profile.samples.forEach((id, index) => {
  clockUs += profile.timeDeltas[index];
  samples.push({ id, us: clockUs });
});
const isIdle = (id) => byId.get(id).callFrame.functionName === '(idle)';

for (const start of marks.filter((mark) => mark.kind === 'start')) {
  const end = marks.find((mark) => mark.kind === 'end' && mark.label === start.label && mark.us > start.us);
  if (!end) continue;
  const stalls = [];
  let run = null;
  let busyUs = 0;
  for (let index = 0; index + 1 < samples.length; index += 1) {
    const { id, us } = samples[index];
    if (us < start.us || us > end.us) continue;
    const durationUs = samples[index + 1].us - us;
    if (isIdle(id)) {
      if (run && run.us >= stallUs) stalls.push(run);
      run = null;
      continue;
    }
    busyUs += durationUs;
    run ??= { startUs: us, us: 0, parts: [] };
    run.us += durationUs;
    run.parts.push({ id, durationUs });
  }
  if (run && run.us >= stallUs) stalls.push(run);
  const inclusive = new Map();
  const self = new Map();
  for (const stall of stalls)
    for (const { id, durationUs } of stall.parts) {
      for (const name of stackOf(id)) inclusive.set(name, (inclusive.get(name) ?? 0) + durationUs);
      const name = nameOf(byId.get(id));
      self.set(name, (self.get(name) ?? 0) + durationUs);
    }
  const totalUs = stalls.reduce((sum, stall) => sum + stall.us, 0);
  const longest = Math.max(0, ...stalls.map((stall) => stall.us));
  console.log(
    `\n== ${start.label}: ${((end.us - start.us) / 1e6).toFixed(1)} s, thread busy ${(busyUs / 1000).toFixed(0)} ms; ` +
      `${stalls.length} busy runs ≥ ${stallUs / 1000} ms, longest ${(longest / 1000).toFixed(1)} ms, ${(totalUs / 1000).toFixed(0)} ms in all`,
  );
  const print = (title, table) => {
    console.log(`  ${title}:`);
    for (const [name, us] of [...table.entries()].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(
        `    ${(us / 1000).toFixed(1).padStart(8)} ms ${((100 * us) / Math.max(1, totalUs)).toFixed(0).padStart(3)} %  ${name}`,
      );
  };
  print('inclusive during stalls', inclusive);
  print('self during stalls', self);
}
