/**
 * Summarises a V8 CPU profile (from `npm run bench -- --profile`, in bench/results/profiles/):
 * where the service's time went, by package and by function (self and inclusive).
 *
 *   npx ts-node --transpile-only bench/profile-summary.ts <file.cpuprofile> [skipSeconds] [top]
 *
 * skipSeconds leaves out the start-up (module loading, migrations) at the head of the profile.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, skipArg, topArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: profile-summary.ts <file.cpuprofile> [skipSeconds] [top]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const skipUs = Number(skipArg ?? 0) * 1e6;
const top = Number(topArg ?? 30);

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const label = (n: ProfileNode) => {
  const { functionName, url, lineNumber } = n.callFrame;
  const where = url.replace(/.*node_modules\//, '').replace(/.*\/dist\//, 'app:');
  return `${functionName || '(anonymous)'} ${where}${where ? `:${lineNumber + 1}` : ''}`;
};
const packageOf = (n: ProfileNode) => {
  const { url, functionName } = n.callFrame;
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.includes('/dist/')) return 'app';
  if (url.startsWith('node:')) return 'node';
  return url ? url : functionName; // (idle), (garbage collector), writev, ...
};

let elapsed = 0;
let total = 0;
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
const packages = new Map<string, number>();
const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);

profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  elapsed += dt;
  if (elapsed < skipUs) return;
  const node = byId.get(id)!;
  total += dt;
  add(self, label(node), dt);
  add(packages, packageOf(node), dt);
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const l = label(byId.get(cur)!);
    if (!seen.has(l)) {
      seen.add(l);
      add(inclusive, l, dt);
    }
  }
});

const print = (title: string, m: Map<string, number>) => {
  process.stdout.write(`\n${title}\n`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${((100 * v) / total).toFixed(1).padStart(6)}%  ${k}\n`);
  }
};
process.stdout.write(
  `${(total / 1e6).toFixed(1)} s of samples after the first ${skipArg ?? 0} s\n`,
);
print('by package (self time)', packages);
print('by function (self time)', self);
print('by function (inclusive)', inclusive);
