import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** The parts of a compose service the checks read; everything else is ignored. */
export interface ComposeService {
  image?: string;
  // Compose build arguments are scalars (a map) or `NAME=value` strings (a list).
  build?:
    string | { context?: string; target?: string; dockerfile_inline?: string; args?: Record<string, string | number | boolean> | string[] };
  environment?: Record<string, unknown> | string[];
  ports?: (string | number | { published?: string | number; target?: string | number })[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string | string[] };
  restart?: string;
  profiles?: string[];
  command?: string | string[];
  entrypoint?: string | string[];
  volumes?: (string | { type?: string; source?: string; target?: string })[];
}

/** A compose file's services. YAML merge keys (`<<: *anchor`) are resolved, as Compose does. */
export function readComposeServices(file: URL): Record<string, ComposeService> {
  const document = parse(readFileSync(file, 'utf8'), { merge: true }) as { services?: Record<string, ComposeService> };
  return document.services ?? {};
}

/**
 * Variables a service sets, as the strings the process will see (YAML `3000` becomes `"3000"`).
 * A name without a value (`KEY:` or `- KEY`) is passed through from the host by Compose, so it is
 * left out: the file alone does not set it.
 */
export function environmentOf(service: ComposeService): Record<string, string> {
  const entries = Array.isArray(service.environment)
    ? service.environment.map((item) => {
        const at = item.indexOf('=');
        return at === -1 ? [item, null] : [item.slice(0, at), item.slice(at + 1)];
      })
    : Object.entries(service.environment ?? {});
  return Object.fromEntries(
    entries.filter(([, value]) => value !== null && value !== undefined).map(([key, value]) => [key, String(value)]),
  );
}

/**
 * `${NAME:-default}` and `${NAME-default}` replaced by their default, as Compose does when `NAME`
 * is unset: the checks read what the file does on a machine with no variable set.
 */
export function withDefaults(value: string): string {
  return value.replace(/\$\{[A-Za-z_][A-Za-z0-9_]*:?-([^}]*)\}/g, '$1');
}

/** Port mappings in either syntax: `"[ip:]published:target[/proto]"`, a bare target, or `{ published, target }`. */
export function portMappings(service: ComposeService): { published: number | undefined; target: number }[] {
  return hostBindings(service).map(({ published, target }) => ({ published, target }));
}

/** {@link portMappings} with the host interface each port is published on (`undefined`: every interface). */
export function hostBindings(service: ComposeService): { hostIp: string | undefined; published: number | undefined; target: number }[] {
  return (service.ports ?? []).map((entry) => {
    if (typeof entry === 'object') {
      return {
        hostIp: undefined,
        published: entry.published === undefined ? undefined : Number(withDefaults(String(entry.published))),
        target: Number(entry.target),
      };
    }
    const parts = withDefaults(String(entry))
      .replace(/\/(tcp|udp)$/, '')
      .split(':');
    return {
      hostIp: parts.length > 2 ? parts.slice(0, -2).join(':') : undefined,
      published: parts.length > 1 ? Number(parts.at(-2)) : undefined,
      target: Number(parts.at(-1)),
    };
  });
}

/** `depends_on` as service -> condition; the short list form means `service_started`. */
export function dependencyConditions(service: ComposeService): Record<string, string | undefined> {
  const dependsOn = service.depends_on ?? {};
  return Array.isArray(dependsOn)
    ? Object.fromEntries(dependsOn.map((name) => [name, 'service_started']))
    : Object.fromEntries(Object.entries(dependsOn).map(([name, options]) => [name, options?.condition ?? 'service_started']));
}

/** The APP build argument, which selects the service in the shared Dockerfile. */
export function buildArg(service: ComposeService, name: string): string | undefined {
  const args = typeof service.build === 'object' ? service.build.args : undefined;
  if (Array.isArray(args)) return args.find((item) => item.startsWith(`${name}=`))?.slice(name.length + 1);
  return args?.[name] === undefined ? undefined : String(args[name]);
}
