import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { environmentOf, readComposeServices } from '../support/compose-file.js';

/**
 * The provisioned Grafana pieces agree with each other and with compose: a dashboard whose panels
 * name another datasource uid, or a provider path that compose does not mount, shows empty panels
 * without any error. (Which metrics the queries name is checked against the running apps in
 * observability.e2e-spec.ts.)
 */
const repoFile = (path: string) => new URL(`../../${path}`, import.meta.url);
const read = (path: string) => readFileSync(repoFile(path), 'utf8');

type Panel = { id: number; type: string; title: string; datasource?: { uid: string }; targets?: { refId: string; expr: string; datasource?: { uid: string } }[] };
const dashboard = JSON.parse(read('observability/grafana/dashboards/outbox-inbox.json')) as { uid: string; panels: Panel[] };
const datasources = (parse(read('observability/grafana/provisioning/datasources/prometheus.yml')) as { datasources: { uid: string; url: string }[] }).datasources;
const providers = (parse(read('observability/grafana/provisioning/dashboards/dashboards.yml')) as { providers: { options: { path: string } }[] }).providers;
const compose = readComposeServices(repoFile('docker-compose.yml'));

describe('Grafana dashboard and provisioning', () => {
  it('when a panel queries, then it uses the provisioned Prometheus datasource', () => {
    const uids = new Set(datasources.map((datasource) => datasource.uid));
    const queried = dashboard.panels.filter((panel) => panel.type !== 'row');
    expect(queried.length).toBeGreaterThanOrEqual(12);
    const offenders = queried.flatMap((panel) =>
      [panel.datasource?.uid, ...(panel.targets ?? []).map((target) => target.datasource?.uid)].filter((uid) => !uid || !uids.has(uid)).map((uid) => `${panel.title}: ${uid}`),
    );
    expect(offenders).toEqual([]);
  });

  it('when the dashboard is loaded, then panel ids are unique and every query has a refId and an expression', () => {
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    const targets = dashboard.panels.flatMap((panel) => panel.targets ?? []);
    expect(targets.filter((target) => !target.refId || !target.expr.trim())).toEqual([]);
  });

  it("when compose builds Grafana's image, then it finds the dashboards where the provider looks and Prometheus where the datasource points", () => {
    const build = compose.grafana?.build;
    const copies = (typeof build === 'object' ? (build.dockerfile_inline ?? '') : '').split('\n').map((line) => line.trim());
    for (const provider of providers) expect(copies).toContain(`COPY observability/grafana/dashboards ${provider.options.path}`);
    expect(copies).toContain('COPY observability/grafana/provisioning /etc/grafana/provisioning');
    expect(datasources.map((datasource) => new URL(datasource.url).hostname)).toEqual(['prometheus']);
    expect(Object.keys(compose)).toContain('prometheus');
  });

  it("when Prometheus scrapes, then it targets each app's compose service on the port the app listens on", () => {
    const config = parse(read('observability/prometheus/prometheus.yml')) as { scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[] };
    const targets = config.scrape_configs.flatMap((job) => job.static_configs.flatMap((group) => group.targets)).sort();
    const expected = ['orders', 'inventory', 'loyalty'].map((name) => `${name}:${environmentOf(compose[name] ?? {})[`${name.toUpperCase()}_PORT`]}`).sort();
    expect(targets).toEqual(expected);
  });
});
