import { MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import type { DynamicModule, Type } from '@nestjs/common';

type ModuleRef = Type | DynamicModule | Promise<DynamicModule> | { forwardRef: () => Type };

const segments = (path: unknown): string[] => (Array.isArray(path) ? path : [path ?? '']).map(String);
const join = (...parts: string[]) =>
  `/${parts
    .flatMap((part) => part.split('/'))
    .filter(Boolean)
    .join('/')}`;

/**
 * Every `GET`/`POST`/... path an app module serves, read from the controllers' decorator metadata by
 * walking its imports, without starting anything (no global prefix or versioning in this workspace;
 * a route added by one would be missing here). For checks such as "each probe path exists".
 */
export async function routesOf(root: ModuleRef): Promise<Set<string>> {
  const routes = new Set<string>();
  const seen = new Set<unknown>();
  const visit = async (ref: ModuleRef | undefined): Promise<void> => {
    if (!ref) return;
    const resolved = ref instanceof Promise ? await ref : 'forwardRef' in ref ? ref.forwardRef() : ref;
    if (seen.has(resolved)) return;
    seen.add(resolved);
    const moduleClass: Type = 'module' in resolved ? resolved.module : resolved;
    const dynamic: Partial<DynamicModule> = 'module' in resolved ? resolved : {};
    const metadata = (key: string) => (Reflect.getMetadata(key, moduleClass) as unknown[] | undefined) ?? [];
    const controllers = [...metadata(MODULE_METADATA.CONTROLLERS), ...(dynamic.controllers ?? [])] as Type[];
    for (const controller of controllers) {
      for (const base of segments(Reflect.getMetadata(PATH_METADATA, controller))) {
        for (const name of Object.getOwnPropertyNames(controller.prototype)) {
          const handler: unknown = controller.prototype[name];
          if (typeof handler !== 'function' || name === 'constructor') continue;
          const path: unknown = Reflect.getMetadata(PATH_METADATA, handler);
          if (path !== undefined) for (const own of segments(path)) routes.add(join(base, own));
        }
      }
    }
    for (const child of [...metadata(MODULE_METADATA.IMPORTS), ...(dynamic.imports ?? [])]) await visit(child as ModuleRef);
  };
  await visit(root);
  return routes;
}
