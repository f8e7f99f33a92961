import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, Secret, Service } from 'kubernetes-models/v1';
import ts from 'typescript';
import { parse, parseAllDocuments } from 'yaml';
import { ConfigError, loadConfig } from '@/platform/config/env';
import { loadMigrationConfig } from '@/platform/config/migration';

/**
 * docs/architecture.md, Behind a connection pooler: the manifests in deploy/ validate against the Kubernetes schemas. Each document is
 * checked twice: against the JSON schema of its apiVersion/kind (kubernetes-models, generated from
 * Kubernetes' OpenAPI document: types, required fields, enums), and for unknown fields (those
 * schemas allow any, the API server's strict field validation refuses them) by type-checking the
 * document as an object literal of the same package's interface. Then the facts that tie the
 * manifests to the service and to one another.
 */

const ROOT = join(__dirname, '..');
const DEPLOY = join(ROOT, 'deploy');

type Manifest = { where: string; doc: any };
type ModelClass = { apiVersion: string; kind: string; new (data: any): { validate(): void } };

const MODELS = new Map<string, ModelClass>(
  [
    Namespace,
    ConfigMap,
    Secret,
    Service,
    Deployment,
    Job,
    PodDisruptionBudget,
    HorizontalPodAutoscaler,
    NetworkPolicy,
  ].map((m: ModelClass) => [`${m.apiVersion} ${m.kind}`, m]),
);

/** deploy/prometheus/ holds promtool's rule and test files (scripts/check-alert-rules.sh), not manifests. */
const NOT_MANIFESTS = join(DEPLOY, 'prometheus');

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    join(dir, e.name) === NOT_MANIFESTS
      ? []
      : e.isDirectory()
        ? yamlFiles(join(dir, e.name))
        : /\.ya?ml$/.test(e.name)
          ? [join(dir, e.name)]
          : [],
  );
}

function loadManifests(): Manifest[] {
  return yamlFiles(DEPLOY)
    .filter((f) => !f.endsWith('kustomization.yaml'))
    .flatMap((file) =>
      parseAllDocuments(readFileSync(file, 'utf8')).map((d, i) => {
        if (d.errors.length > 0) throw new Error(`${file}: ${d.errors[0].message}`);
        return { where: `${relative(ROOT, file)}#${i}`, doc: d.toJS() };
      }),
    );
}

/** The Prometheus Operator's kinds (monitoring.yaml): checked by their own test below. */
const OPERATOR_API = 'monitoring.coreos.com/v1';
const isOperatorKind = (doc: any) =>
  doc?.apiVersion === OPERATOR_API && ['ServiceMonitor', 'PrometheusRule'].includes(doc?.kind);

/** The JSON schema of the document's apiVersion/kind; an unknown pair is an error too. */
function schemaErrors(doc: any): string[] {
  const Model = MODELS.get(`${doc?.apiVersion} ${doc?.kind}`);
  if (!Model) return [`no schema for apiVersion ${doc?.apiVersion}, kind ${doc?.kind}`];
  try {
    new Model(doc).validate();
    return [];
  } catch (e) {
    return [(e as Error).message];
  }
}

/** Unknown fields, anywhere in each document: excess-property errors of the typed literal. */
function unknownFieldErrors(docs: any[]): string[][] {
  const file = join(DEPLOY, '__manifests__.ts');
  const source = docs
    .map((d, i) => {
      const from = `kubernetes-models/${d.apiVersion}/${d.kind}`;
      return `import type { I${d.kind} as T${i} } from '${from}';\nexport const d${i}: T${i} = ${JSON.stringify(d)};`;
    })
    .join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2022.d.ts'],
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, ...rest) =>
    name === file ? ts.createSourceFile(name, source, lang) : getSourceFile(name, lang, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  const errors = docs.map((): string[] => []);
  for (const d of ts.getPreEmitDiagnostics(program, program.getSourceFile(file))) {
    const line = d.file?.getLineAndCharacterOfPosition(d.start ?? 0).line ?? 0;
    errors[Math.floor(line / 2)].push(ts.flattenDiagnosticMessageText(d.messageText, ' '));
  }
  return errors;
}

/** Names of environment variables the service reads: src/platform/config/*.ts, specs excepted. */
function namesReadBySrc(): Set<string> {
  const dir = join(ROOT, 'src', 'platform', 'config');
  const text = readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
  const patterns = [
    /\benv\.([A-Z][A-Z0-9_]*)/g,
    /\benv\['([A-Z][A-Z0-9_]*)'\]/g,
    /\b\w+\(\s*'([A-Z][A-Z0-9_]*)'/g,
  ];
  return new Set(patterns.flatMap((p) => [...text.matchAll(p)].map((m) => m[1])));
}

/** The paths the health controller serves: @Controller('health') + @Get('live'), @Get('ready'). */
function healthPaths(): string[] {
  const src = readFileSync(join(ROOT, 'src/modules/health/api/health.controller.ts'), 'utf8');
  const base = /@Controller\('([^']+)'\)/.exec(src)![1];
  return [...src.matchAll(/@Get\('([^']+)'\)/g)].map((m) => `/${base}/${m[1]}`);
}

const manifests = loadManifests();
const of = (kind: string) => manifests.filter((m) => m.doc.kind === kind).map((m) => m.doc);
const deployments = of('Deployment');
const byRole = (role: string) =>
  deployments.find((d) =>
    d.spec.template.spec.containers[0].env?.some((e: any) => e.name === 'ROLE' && e.value === role),
  );
const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([k, v]) => labels?.[k] === v);
const podLabels = (d: any): Record<string, string> => d.spec.template.metadata.labels;
const secretNamed = (name: string) => of('Secret').find((x) => x.metadata.name === name);
const [RUNTIME_SECRET, MIGRATION_SECRET] = ['vision-secrets', 'vision-migration-secrets'];

/** Every secret value a workload's containers can read: `secret/key`, from envFrom, env and volumes. */
function secretsReadBy(workload: any): string[] {
  const pod = workload.spec.template.spec;
  const wholeSecret = (name: string) => {
    const secret = secretNamed(name);
    if (!secret)
      throw new Error(`${workload.metadata.name} names a Secret not in deploy/: ${name}`);
    return Object.keys(secret.stringData ?? secret.data ?? {}).map((k) => `${name}/${k}`);
  };
  const fromVolumes = (pod.volumes ?? []).flatMap((v: any) => [
    ...(v.secret ? wholeSecret(v.secret.secretName) : []),
    ...(v.projected?.sources ?? []).flatMap((s: any) =>
      s.secret ? wholeSecret(s.secret.name) : [],
    ),
  ]);
  const fromContainers = [...(pod.initContainers ?? []), ...pod.containers].flatMap((c: any) => [
    ...(c.envFrom ?? []).flatMap((e: any) => (e.secretRef ? wholeSecret(e.secretRef.name) : [])),
    ...(c.env ?? []).flatMap((e: any) => {
      const ref = e.valueFrom?.secretKeyRef;
      return ref ? [`${ref.name}/${ref.key}`] : [];
    }),
  ]);
  return [...new Set([...fromVolumes, ...fromContainers])].sort();
}

const containers = (kinds: string[]) =>
  manifests
    .filter((m) => kinds.includes(m.doc.kind))
    .flatMap((m) => m.doc.spec.template.spec.containers as any[]);

describe('deploy/ Kubernetes manifests', () => {
  it('every file is in kustomization.yaml, and every resource there exists', () => {
    const k = parse(readFileSync(join(DEPLOY, 'kustomization.yaml'), 'utf8'));
    expect(k).toMatchObject({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
    });
    const files = yamlFiles(DEPLOY)
      .map((f) => relative(DEPLOY, f))
      .filter((f) => f !== 'kustomization.yaml');
    expect([...k.resources].sort()).toEqual(files.sort());
    expect(k.resources).toContain('network-policy.yaml');
  });

  it('every document validates against the schema of its apiVersion/kind, without unknown fields', () => {
    expect(manifests.length).toBeGreaterThanOrEqual(10);
    const kube = manifests.filter((m) => !isOperatorKind(m.doc));
    const strict = unknownFieldErrors(kube.map((m) => m.doc));
    const problems = kube.flatMap((m, i) =>
      [...schemaErrors(m.doc), ...strict[i]].map((p) => `${m.where}: ${p}`),
    );
    expect(problems).toEqual([]);
  });

  it('rejects invalid manifests (the check is not vacuous)', () => {
    const api = structuredClone(byRole('api'));
    expect(schemaErrors({ ...api, spec: { ...api.spec, replicas: 'two' } }).join()).toMatch(
      /replicas/,
    );
    const { selector: _gone, ...noSelector } = api.spec;
    expect(schemaErrors({ ...api, spec: noSelector }).join()).toMatch(/selector/);
    expect(schemaErrors({ ...api, kind: 'Deploymnet' })).not.toEqual([]);
    // A misspelt field passes the JSON schema (it allows unknown fields), not the strict check.
    const typo = structuredClone(api);
    typo.spec.template.spec.containers[0].readinessProbes = { httpGet: { path: '/', port: 1 } };
    expect(schemaErrors(typo)).toEqual([]);
    expect(unknownFieldErrors([typo])[0].join()).toMatch(/readinessProbes/);
  });

  it('API and worker run the same image with ROLE api / worker; probes use paths the app serves', () => {
    const [api, worker] = [byRole('api'), byRole('worker')];
    expect(api && worker).toBeTruthy();
    const images = containers(['Deployment', 'Job']).map((c) => c.image);
    expect(new Set(images)).toEqual(new Set(['vision-eligibility']));

    const served = healthPaths();
    expect(served).toEqual(expect.arrayContaining(['/health/live', '/health/ready']));
    const c = api.spec.template.spec.containers[0];
    expect(c.readinessProbe.httpGet.path).toBe('/health/ready');
    expect(c.livenessProbe.httpGet.path).toBe('/health/live');
    for (const probe of [c.readinessProbe, c.livenessProbe, c.startupProbe]) {
      expect(served).toContain(probe.httpGet.path);
      const port = c.ports.find((p: any) => p.name === probe.httpGet.port);
      expect(port.containerPort).toBe(Number(of('ConfigMap')[0].data.PORT));
    }
    // A worker process serves no API (src/serve.ts runWorker): nothing to probe there; its one
    // port is its metrics (docs/architecture.md, What operators see).
    const w = worker.spec.template.spec.containers[0];
    expect(w.readinessProbe ?? w.livenessProbe).toBeUndefined();
    expect(w.ports.map((p: any) => p.name)).toEqual(['metrics']);
  });

  it('names only settings the service reads, and the ConfigMap with the Secret passes its parser', () => {
    const read = namesReadBySrc();
    expect(read.has('DATABASE_URL') && read.has('SESSION_SECRET')).toBe(true);
    const [configMap, secret] = [of('ConfigMap')[0], secretNamed(RUNTIME_SECRET)];
    const envNames = containers(['Deployment', 'Job']).flatMap((c) =>
      (c.env ?? []).map((e: any) => e.name),
    );
    const names = [
      ...Object.keys(configMap.data),
      ...of('Secret').flatMap((x) => Object.keys(x.stringData)),
      ...envNames,
    ];
    expect(names.filter((n) => !read.has(n))).toEqual([]);
    for (const n of ['DATABASE_URL', 'REDIS_URL', 'APP_ENCRYPTION_KEY', 'SESSION_SECRET']) {
      expect(Object.keys(secret.stringData)).toContain(n);
    }

    // The placeholders never start a pod: each is refused by the service's own parser...
    const env = { ...configMap.data, ...secret.stringData, ROLE: 'api' };
    const placeholders = Object.keys(secret.stringData).filter((k) =>
      /^REPLACE/.test(secret.stringData[k]),
    );
    expect(placeholders.length).toBeGreaterThanOrEqual(5);
    let refused: string[] = [];
    try {
      loadConfig(env, false);
    } catch (e) {
      refused = e instanceof ConfigError ? e.problems : [];
    }
    for (const k of placeholders.filter((n) => read.has(n))) {
      expect(refused.some((p) => p.startsWith(`${k}:`))).toBe(true);
    }
    // ...and with real values the ConfigMap's settings are all accepted.
    const config = loadConfig(
      {
        ...env,
        DATABASE_URL: 'postgres://vision:pw@pgbouncer:6432/vision',
        DATABASE_MIGRATION_URL: 'postgres://vision:pw@postgres:5432/vision',
        REDIS_URL: 'rediss://:pw@redis:6379',
        APP_ENCRYPTION_KEY: 'ab'.repeat(32),
        SESSION_SECRET: 'x'.repeat(32),
        SMTP_URL: 'smtps://user:pw@smtp.example.com:465',
      },
      false,
    );
    expect(config).toMatchObject({
      isProduction: true,
      webConcurrency: 1,
      port: 3000,
      metrics: { port: 9464, host: '0.0.0.0' },
    });
    // MAIL_DIR is a mounted volume: the root filesystem is read-only.
    for (const c of containers(['Deployment'])) {
      expect(c.securityContext).toMatchObject({ readOnlyRootFilesystem: true });
      expect(c.volumeMounts.map((v: any) => v.mountPath)).toContain(config.mailDir);
    }
  });

  it('API and worker pods read no migration credential; the migration Job reads nothing else', () => {
    const migration = secretNamed(MIGRATION_SECRET);
    expect(Object.keys(migration.stringData)).toEqual(['DATABASE_MIGRATION_URL']);
    for (const d of deployments) {
      const read = secretsReadBy(d);
      expect(read).toContain(`${RUNTIME_SECRET}/DATABASE_URL`);
      expect(read.filter((k) => k.startsWith(`${MIGRATION_SECRET}/`))).toEqual([]);
      expect(read.filter((k) => k.endsWith('/DATABASE_MIGRATION_URL'))).toEqual([]);
    }
    const [job] = of('Job');
    expect(secretsReadBy(job)).toEqual([`${MIGRATION_SECRET}/DATABASE_MIGRATION_URL`]);
    // Nor does any Secret other than the Job's hold the migration URL, under any key.
    for (const x of of('Secret').filter((x) => x.metadata.name !== MIGRATION_SECRET)) {
      expect(Object.keys(x.stringData)).not.toContain('DATABASE_MIGRATION_URL');
    }

    // What the Job is given is enough: the migration CLI's parser (ormconfig.ts) refuses the
    // placeholder, and with a real value connects straight to PostgreSQL, past the pooler.
    const configMap = of('ConfigMap')[0].data;
    const jobEnv = { ...configMap, ...migration.stringData };
    expect(() => loadMigrationConfig(jobEnv)).toThrow(/DATABASE_MIGRATION_URL: must/);
    const direct = 'postgres://vision_owner:pw@postgres:5432/vision';
    expect(loadMigrationConfig({ ...jobEnv, DATABASE_MIGRATION_URL: direct })).toMatchObject({
      databaseUrl: direct,
      databasePooler: 'none',
    });
  });

  it('selectors match pod labels; PDBs, HPAs and the Service target existing Deployments', () => {
    for (const d of deployments) {
      expect(matches(d.spec.selector.matchLabels, podLabels(d))).toBe(true);
    }
    const selected = (selector: Record<string, string>) =>
      deployments.filter((d) => matches(selector, podLabels(d))).map((d) => d.metadata.name);
    const [api, worker] = [byRole('api'), byRole('worker')];
    const apiService = of('Service').find((x) => x.metadata.name === 'vision-api');
    expect(selected(apiService.spec.selector)).toEqual([api.metadata.name]);

    const pdbs = of('PodDisruptionBudget');
    // One PDB per Deployment, each selecting exactly that Deployment's pods.
    expect(pdbs.map((p) => selected(p.spec.selector.matchLabels)).sort()).toEqual(
      [[api.metadata.name], [worker.metadata.name]].sort(),
    );
    const hpas = of('HorizontalPodAutoscaler');
    expect(hpas.map((h) => h.spec.scaleTargetRef.name).sort()).toEqual(
      deployments.map((d) => d.metadata.name).sort(),
    );
    for (const h of hpas) {
      expect(h.spec.scaleTargetRef).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment' });
      expect(h.spec.metrics[0].resource.name).toBe('cpu');
      const pdb = pdbs.find(
        (p) => selected(p.spec.selector.matchLabels)[0] === h.spec.scaleTargetRef.name,
      );
      // A drain can always evict one pod.
      expect(h.spec.minReplicas).toBeGreaterThan(pdb.spec.minAvailable);
    }
    for (const c of containers(['Deployment', 'Job'])) {
      expect(Object.keys(c.resources.requests).sort()).toEqual(['cpu', 'memory']);
      expect(Object.keys(c.resources.limits).sort()).toEqual(['cpu', 'memory']);
    }
  });

  it('every pod is scraped on METRICS_PORT; the PrometheusRule is deploy/prometheus/alerts.yml; the dashboard reads metrics the service has', () => {
    const configMap = of('ConfigMap')[0].data;
    const port = Number(configMap.METRICS_PORT);
    expect(configMap.METRICS_HOST).toBe('0.0.0.0');
    // Each Deployment's pods: a `metrics` container port and the annotations on that port.
    for (const d of deployments) {
      const ports = d.spec.template.spec.containers[0].ports;
      expect(ports).toContainEqual({ name: 'metrics', containerPort: port, protocol: 'TCP' });
      expect(d.spec.template.metadata.annotations).toEqual({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(port),
        'prometheus.io/path': '/metrics',
      });
    }
    // The ServiceMonitor selects the metrics Service, which selects every Deployment's pods.
    const [monitor] = of('ServiceMonitor');
    expect(monitor.apiVersion).toBe(OPERATOR_API);
    const services = of('Service').filter((x) =>
      matches(monitor.spec.selector.matchLabels, x.metadata.labels),
    );
    expect(services.map((x) => x.metadata.name)).toEqual(['vision-metrics']);
    const metricsService = services[0];
    expect(metricsService.spec.ports).toEqual([
      { name: 'metrics', port, targetPort: 'metrics', protocol: 'TCP' },
    ]);
    expect(monitor.spec.endpoints.map((e: any) => [e.port, e.path])).toEqual([
      ['metrics', '/metrics'],
    ]);
    expect(
      deployments.filter((d) => matches(metricsService.spec.selector, podLabels(d))).length,
    ).toBe(deployments.length);
    // The rules the operator loads are the ones promtool tests.
    const [rule] = of('PrometheusRule');
    const tested = parse(readFileSync(join(NOT_MANIFESTS, 'alerts.yml'), 'utf8'));
    expect(rule.spec).toEqual(tested);
    expect(rule.spec.groups[0].rules.map((r: any) => r.alert)).toEqual([
      'VisionHttp5xxRatio',
      'VisionInsurerSlow',
      'VisionQueueBacklog',
      'VisionWebhookFailures',
      'VisionVerificationTasksOverdue',
      'VisionNoWorkerHeartbeat',
    ]);
    // The dashboard ships as a generated ConfigMap and queries only names the service exposes.
    const k = parse(readFileSync(join(DEPLOY, 'kustomization.yaml'), 'utf8'));
    const [generated] = k.configMapGenerator;
    expect(generated.files).toEqual(['grafana/vision-eligibility.json']);
    const dashboard = JSON.parse(readFileSync(join(DEPLOY, generated.files[0]), 'utf8'));
    const metricsSource = readFileSync(join(ROOT, 'src/platform/metrics/prom-metrics.ts'), 'utf8');
    const ours = new Set(
      [
        ...metricsSource.matchAll(
          /name: '([a-z_]+)'|(?:dbGauge|histogram|counter)\(\s*'([a-z_]+)'/g,
        ),
      ].map((m) => m[1] ?? m[2]),
    );
    expect(ours.size).toBe(11);
    // A query's words, less its grouping labels, matchers, windows and functions: metric names.
    const queried: string[] = dashboard.panels.flatMap((p: any) =>
      p.targets.flatMap((t: any) =>
        (
          t.expr
            .replace(/by \([^)]*\)|\{[^}]*\}|\[[^\]]*\]/g, '')
            .match(/[a-z_][a-z0-9_]*/g) as string[]
        ).map((w) => w.replace(/_(bucket|count|sum)$/, '')),
      ),
    );
    const runtime = (n: string) => n.startsWith('nodejs_');
    const functions = new Set(['rate', 'sum', 'max', 'histogram_quantile', 'by']);
    const names = queried.filter((n: string) => !functions.has(n) && !runtime(n));
    expect(names.length).toBeGreaterThan(10);
    for (const n of names) expect({ n, known: ours.has(n) }).toEqual({ n, known: true });
  });

  it('denies all traffic by default and allows only what the service needs', () => {
    const policies = of('NetworkPolicy');
    const denyAll = policies.filter(
      (p) => Object.keys(p.spec.podSelector).length === 0 && !p.spec.ingress && !p.spec.egress,
    );
    expect(denyAll.map((p) => [...p.spec.policyTypes].sort())).toEqual([['Egress', 'Ingress']]);
    const workloads = [...deployments, ...of('Job')];
    const podsOf = (p: any) =>
      workloads.filter((w) => {
        const labels = podLabels(w);
        const { matchLabels = {}, matchExpressions = [] } = p.spec.podSelector;
        return (
          matches(matchLabels, labels) &&
          matchExpressions.every(
            (e: any) => e.operator === 'In' && e.values.includes(labels[e.key]),
          )
        );
      });
    /** Ports a direction allows a workload's pods, as `port/protocol` and `from` namespace. */
    const allowed = (w: any, dir: 'ingress' | 'egress') =>
      policies
        .filter((p) => p.spec[dir] && podsOf(p).includes(w))
        .flatMap((p) =>
          p.spec[dir].flatMap((rule: any) =>
            rule.ports.map((port: any) => ({
              port: `${port.port}/${port.protocol}`,
              ns: (rule.from ?? rule.to)?.[0]?.namespaceSelector?.matchLabels?.[
                'kubernetes.io/metadata.name'
              ],
            })),
          ),
        );
    const [api, worker] = [byRole('api'), byRole('worker')];
    const [job] = of('Job');
    // In: the API's HTTP port from the ingress controller, metrics from Prometheus, nothing else.
    expect(allowed(api, 'ingress')).toEqual(
      expect.arrayContaining([
        { port: 'http/TCP', ns: 'ingress-nginx' },
        { port: 'metrics/TCP', ns: 'monitoring' },
      ]),
    );
    expect(allowed(api, 'ingress')).toHaveLength(2);
    expect(allowed(worker, 'ingress')).toEqual([{ port: 'metrics/TCP', ns: 'monitoring' }]);
    expect(allowed(job, 'ingress')).toEqual([]);
    // Named ports exist on the pods they are allowed to.
    for (const w of [api, worker])
      for (const { port } of allowed(w, 'ingress'))
        expect(w.spec.template.spec.containers[0].ports.map((p: any) => p.name)).toContain(
          port.split('/')[0],
        );
    // Out: DNS for everyone; each URL's port in the Secrets a workload reads; HTTPS and SMTP.
    const portOf = (url: string) => new URL(url.replace(/^REPLACE-/, '')).port;
    const egress = (w: any) => allowed(w, 'egress').map((a: any) => a.port);
    for (const w of workloads) {
      expect(allowed(w, 'egress')).toContainEqual({ port: '53/UDP', ns: 'kube-system' });
      for (const key of secretsReadBy(w).filter((k) => k.endsWith('_URL'))) {
        const [name, field] = key.split('/');
        expect(egress(w)).toContain(`${portOf(secretNamed(name).stringData[field])}/TCP`);
      }
    }
    for (const w of [api, worker])
      expect(egress(w)).toEqual(expect.arrayContaining(['443/TCP', '465/TCP', '587/TCP']));
    expect(egress(job).filter((p: string) => !p.startsWith('53/'))).toEqual(['5432/TCP']);
  });

  it('takes every image by digest: manifests, kustomization.yaml, docker-compose.yml and the Dockerfile', () => {
    const k = parse(readFileSync(join(DEPLOY, 'kustomization.yaml'), 'utf8'));
    const images = [
      ...containers(['Deployment', 'Job']),
      ...manifests
        .filter((m) => ['Deployment', 'Job'].includes(m.doc.kind))
        .flatMap((m) => m.doc.spec.template.spec.initContainers ?? []),
    ].map((c: any) => c.image as string);
    expect(images.length).toBe(3);
    expect(unpinned(images, k.images)).toEqual([]);
    const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'));
    const composeImages = Object.values<any>(compose.services).flatMap((s) => s.image ?? []);
    expect(composeImages).toHaveLength(2);
    expect(unpinned(composeImages, [])).toEqual([]);
    const bases = [...readFileSync(join(ROOT, 'Dockerfile'), 'utf8').matchAll(/^FROM\s+(\S+)/gm)];
    expect(bases).toHaveLength(2);
    expect(
      unpinned(
        bases.map((m) => m[1]),
        [],
      ),
    ).toEqual([]);
    // The rule refuses a tag, a tagged kustomize entry and a malformed digest.
    expect(unpinned(['postgres:15', 'redis@sha256:abc'], [])).toEqual([
      'postgres:15',
      'redis@sha256:abc',
    ]);
    expect(unpinned([APP_IMAGE], [{ name: APP_IMAGE, newTag: '0.1.0' }])).toEqual([
      'images: vision-eligibility',
    ]);
    // What the release pipeline's `kustomize edit set image` writes passes.
    const set = { name: APP_IMAGE, newName: 'registry.example.com/vision-eligibility' };
    expect(unpinned([APP_IMAGE], [{ ...set, digest: `sha256:${'0a'.repeat(32)}` }])).toEqual([]);
  });

  it('docker-compose.yml: PostgreSQL and Redis take passwords the operator sets, none by default', () => {
    const text = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
    expect(text).not.toMatch(/vision:vision/);
    const { services } = parse(text);
    const required = (name: string) => new RegExp(`\\$\\{${name}:\\?[^}]+\\}`);
    expect(services.postgres.environment.POSTGRES_PASSWORD).toMatch(required('POSTGRES_PASSWORD'));
    expect(services.app.environment.DATABASE_URL).toMatch(
      new RegExp(`^postgres://vision:${required('POSTGRES_PASSWORD').source}@postgres:`),
    );
    expect(services.redis.command.join(' ')).toMatch(/--requirepass "\$\$REDIS_PASSWORD"/);
    expect(services.redis.environment.REDIS_PASSWORD).toMatch(required('REDIS_PASSWORD'));
    expect(services.app.environment.REDIS_URL).toMatch(
      new RegExp(`^redis://:${required('REDIS_PASSWORD').source}@redis:6379$`),
    );
  });
});

/** The app's image name in the manifests: only kustomization.yaml's `images:` resolves it. */
const APP_IMAGE = 'vision-eligibility';
const DIGEST = /^sha256:[0-9a-f]{64}$/;

/**
 * deploy/README.md, The image by digest: the references not pinned. A reference is pinned when
 * it ends in `@sha256:<64 hex>`, or is the bare app name, which a kustomize entry (if any) maps
 * by digest and never by tag.
 */
function unpinned(images: string[], entries: any[] | undefined): string[] {
  const bad = images.filter((i) => {
    const [ref, digest] = i.split('@');
    return i === APP_IMAGE ? false : !ref || !digest || !DIGEST.test(digest);
  });
  const badEntries = (entries ?? [])
    .filter((e) => e.name !== APP_IMAGE || e.newTag || !DIGEST.test(e.digest ?? ''))
    .map((e) => `images: ${e.name}`);
  return [...bad, ...badEntries];
}
