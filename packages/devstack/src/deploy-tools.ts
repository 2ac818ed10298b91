import { ensureGoTool, goToolPath, type GoTool } from './go-install';

/**
 * Pinned: the newest Prometheus module on the Go module proxy (v0.3xx.y is Prometheus 3.xx.y). Only promtool is
 * built, to check deploy/prometheus/alerts.yml (and the dashboard's queries) in `npm test`.
 */
export const PROMTOOL_VERSION = 'v0.316.0';

/** Pinned: Helm 3, what most clusters' tooling runs; the chart (apiVersion v2) works with Helm 4 too. */
export const HELM_VERSION = 'v3.22.0';

const PROMTOOL: GoTool = {
  title: 'promtool',
  name: 'promtool',
  binary: 'promtool',
  pkg: 'github.com/prometheus/prometheus/cmd/promtool',
  version: PROMTOOL_VERSION,
};

const HELM: GoTool = {
  title: 'Helm',
  name: 'helm',
  binary: 'helm',
  pkg: 'helm.sh/helm/v3/cmd/helm',
  version: HELM_VERSION,
};

export const promtoolPath = () => goToolPath(PROMTOOL);
export const helmPath = () => goToolPath(HELM);

/** Builds promtool into the tool cache when missing (minutes, once: it links every service discovery). */
export function ensurePromtool(log: (line: string) => void): string {
  return ensureGoTool(PROMTOOL, log, '');
}

/** Builds Helm into the tool cache when missing. */
export function ensureHelm(log: (line: string) => void): string {
  return ensureGoTool(HELM, log, '');
}
