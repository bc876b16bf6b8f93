// deploy/: nothing here runs a cluster or builds an image, so these tests parse the Dockerfile and
// the Kubernetes manifests and check the fields that tie them to each other and to the server:
// ports, probe paths (served without a key), environment and flag names, volumes, labels, the
// metric names the HPA and the inference gateway read.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { SERVE_FLAGS } from '../../src/config.js';
import { healthRoutes } from '../../src/api/health.js';
import { Metrics } from '../../src/metrics.js';
import { EngineMetrics } from '../../src/server/engine-metrics.js';
import { Readiness } from '../../src/server/readiness.js';

const DIR = join(import.meta.dirname, '../../deploy');
type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function manifests(): Array<{ file: string; doc: Obj }> {
  const out: Array<{ file: string; doc: Obj }> = [];
  for (const file of readdirSync(join(DIR, 'k8s')).filter((f) => f.endsWith('.yaml'))) {
    for (const d of parseAllDocuments(readFileSync(join(DIR, 'k8s', file), 'utf8'))) {
      expect(d.errors, file).toEqual([]);
      out.push({ file, doc: d.toJS() as Obj });
    }
  }
  return out;
}

const all = manifests();
const one = (kind: string): Obj => {
  const found = all.filter((m) => m.doc.kind === kind);
  expect(found, kind).toHaveLength(1);
  return found[0]!.doc;
};
const deployment = one('Deployment');
const pod = deployment.spec.template;
const container = pod.spec.containers[0];
const env = new Map<string, Obj>(container.env.map((e: Obj) => [e.name, e]));
const port = (name: string): number => container.ports.find((p: Obj) => p.name === name).containerPort;
const dockerfile = readFileSync(join(DIR, 'Dockerfile'), 'utf8');

/** The instructions of one stage of the Dockerfile (from its FROM to the next). */
function stage(name: string): string {
  const m = new RegExp(`^FROM .* AS ${name}\\n([\\s\\S]*?)(?=^FROM |(?![\\s\\S]))`, 'm').exec(dockerfile);
  expect(m, `stage ${name}`).not.toBeNull();
  return m![1]!;
}

const envNames = new Set(SERVE_FLAGS.flatMap((f) => [f.env ?? 'SVC_' + f.flag.toUpperCase().replace(/-/g, '_'), ...(f.envAlso ?? [])]));
const flagNames = new Set(SERVE_FLAGS.map((f) => f.flag));

describe('Kubernetes manifests', () => {
  it('parse, carry the app label, and are all listed by the kustomization', () => {
    const kustomization = one('Kustomization');
    const files = new Set(all.map((m) => m.file));
    files.delete('kustomization.yaml');
    files.delete('secret.example.yaml'); // created by hand, never applied from the repository
    expect(new Set(kustomization.resources)).toEqual(files);
    for (const { doc, file } of all) if (doc.kind !== 'Kustomization') expect(doc.metadata.labels?.['app.kubernetes.io/name'], file).toBe('svc');
  });

  it('Deployment: ports, env and flags are the server\'s own', () => {
    expect(deployment.spec.selector.matchLabels).toEqual(pod.metadata.labels);
    expect(String(port('http'))).toBe(env.get('SVC_PORT')!.value);
    expect(String(port('metrics'))).toBe(env.get('SVC_PREDICT_PORT')!.value);
    expect(env.get('SVC_HOST')!.value).toBe('0.0.0.0');
    for (const name of env.keys()) expect(envNames.has(name), name).toBe(true);
    for (const a of container.args as string[]) expect(flagNames.has(/^--([a-z-]+)/.exec(a)![1]!), a).toBe(true);
    const secret = one('Secret');
    expect(env.get('SVC_API_KEYS')!.valueFrom.secretKeyRef).toEqual({ name: secret.metadata.name, key: Object.keys(secret.stringData)[0] });
  });

  it('probes: liveness and startup on /health, readiness on /ready, both served without a key', () => {
    const routes = new Map(healthRoutes({ startedAt: 0, models: new Map(), metrics: new Metrics(), readiness: new Readiness(() => [], { stallDeadlineMs: 1, maxQueue: 1 }) }).map((r) => [r.path, r]));
    for (const [probe, path] of [['livenessProbe', '/health'], ['startupProbe', '/health'], ['readinessProbe', '/ready']] as const) {
      const p = container[probe].httpGet;
      expect(p.path, probe).toBe(path);
      expect(p.port, probe).toBe('http');
      expect(routes.get(path)?.auth, probe).toBe(false);
      expect(routes.get(path)?.method).toBe('GET');
    }
    // The grace period covers the preStop pause plus --shutdown-timeout.
    const timeout = Number(/^--shutdown-timeout=(\d+)$/.exec((container.args as string[]).find((a) => a.startsWith('--shutdown-timeout='))!)![1]);
    expect(pod.spec.terminationGracePeriodSeconds).toBeGreaterThan(timeout + container.lifecycle.preStop.sleep.seconds);
  });

  it('volumes: the data directory and the models claim are mounted where the server looks', () => {
    const mounts = new Map<string, Obj>(container.volumeMounts.map((m: Obj) => [m.name, m]));
    const volumes = new Map<string, Obj>(pod.spec.volumes.map((v: Obj) => [v.name, v]));
    expect(mounts.get('data')!.mountPath).toBe(env.get('SVC_DATA_DIR')!.value);
    expect(volumes.get('models')!.persistentVolumeClaim.claimName).toBe(one('PersistentVolumeClaim').metadata.name);
    const model = (container.args as string[]).find((a) => a.startsWith('--model='))!.slice('--model='.length);
    expect(model.startsWith(mounts.get('models')!.mountPath + '/')).toBe(true);
    for (const name of mounts.keys()) expect(volumes.has(name), name).toBe(true);
    expect(pod.spec.securityContext.runAsNonRoot).toBe(true);
  });

  it('Service selects the pods and maps to their named ports', () => {
    const service = one('Service');
    expect(service.spec.selector).toEqual(pod.metadata.labels);
    for (const p of service.spec.ports) expect(container.ports.some((c: Obj) => c.name === p.targetPort), p.name).toBe(true);
  });

  it('Prometheus scrapes the unauthenticated /metrics of the prediction port', () => {
    const a = pod.metadata.annotations;
    expect(Number(a['prometheus.io/port'])).toBe(port('metrics'));
    expect(a['prometheus.io/path']).toBe('/metrics');
  });

  it('HPA scales the Deployment on the adapter\'s name for vllm:num_requests_waiting, a gauge the server exports', () => {
    const hpa = one('HorizontalPodAutoscaler');
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: deployment.metadata.name });
    const adapter = (parseAllDocuments(one('ConfigMap').data['config.yaml'])[0]!.toJS() as Obj).rules[0];
    expect(hpa.spec.metrics[0].pods.metric.name).toBe(adapter.name.as);
    const series = /^'?([a-z_:]+)\{/.exec(adapter.seriesQuery)![1]!;
    expect(series).toBe('vllm:num_requests_waiting');
    expect(new RegExp(adapter.name.matches).test(series)).toBe(true);
    const metrics = new Metrics();
    new EngineMetrics(metrics, () => []);
    expect(metrics.render()).toContain(`# TYPE ${series} gauge`);
    expect(metrics.render()).toContain('# TYPE vllm:kv_cache_usage_perc gauge');
  });

  it('InferencePool selects the pods on the API port; the objective and the route point at it', () => {
    const pool = one('InferencePool');
    expect(pool.apiVersion).toBe('inference.networking.k8s.io/v1');
    expect(pool.spec.selector.matchLabels).toEqual(pod.metadata.labels);
    expect(pool.spec.targetPorts).toEqual([{ number: port('http') }]);
    expect(pool.spec.endpointPickerRef.name).toBeTruthy();
    const objective = one('InferenceObjective');
    expect(objective.spec.poolRef).toMatchObject({ kind: 'InferencePool', name: pool.metadata.name });
    const route = one('HTTPRoute');
    expect(route.spec.rules[0].backendRefs[0]).toMatchObject({ group: 'inference.networking.k8s.io', kind: 'InferencePool', name: pool.metadata.name });
  });
});

describe('Dockerfile', () => {
  it('has a CPU and a CUDA runtime stage, each non-root, with /data as a volume, the ports, and a /health check', () => {
    for (const name of ['cpu', 'cuda']) {
      const s = stage(name);
      expect(s, name).toMatch(/^USER 10001:10001$/m);
      expect(s).toMatch(/^VOLUME \["\/data"\]$/m);
      expect(s).toContain(`SVC_DATA_DIR=${env.get('SVC_DATA_DIR')!.value}`);
      expect(s).toContain(`SVC_PORT=${port('http')}`);
      expect(s).toContain(`SVC_PREDICT_PORT=${port('metrics')}`);
      expect(s).toMatch(new RegExp(`^EXPOSE ${port('http')} ${port('metrics')}$`, 'm'));
      expect(s).toMatch(new RegExp(`HEALTHCHECK[\\s\\S]*http://127\\.0\\.0\\.1:${port('http')}/health`));
      expect(s).toMatch(/^ENTRYPOINT \["node", "bin\/svc\.mjs", "serve"\]$/m);
    }
    expect(stage('build-cpu')).toContain('-DINFER_NO_CUDA=ON');
    expect(stage('build-cuda')).toContain('-DINFER_NO_CUDA=OFF');
    expect(pod.spec.securityContext.runAsUser).toBe(10001);
  });
});
