import { execFileSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';

/** One rendered Kubernetes object, as plain data. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

/**
 * The objects `kubectl kustomize <dir>` renders: offline, no cluster is contacted. kubectl comes
 * with the machine image; .ci/run installs it where it is missing.
 */
export function renderKustomization(dir: string): KubeObject[] {
  let text: string;
  try {
    text = execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(`kubectl kustomize ${dir} failed (kubectl missing? .ci/run installs it): ${stderr || message}`);
  }
  return parseAllDocuments(text).map((document) => document.toJS() as KubeObject);
}
