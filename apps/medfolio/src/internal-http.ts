// How the one-process launcher joins services that call each other's internal HTTP (main.ts).
import type { EmbeddableService } from '@medfolio/runtime/service-kit';

/** A caller (the gateway, or a service that calls another's) reaches a service's internal HTTP at `<name>InternalUrl`. */
export function tellInternalUrl(caller: object, callerName: string, service: string, url: string): void {
  const key = `${service}InternalUrl`;
  if (!(key in caller)) throw new Error(`${callerName} calls ${service}'s internal HTTP, but its config has no ${key}`);
  (caller as Record<string, string>)[key] = url;
}

/** A service that calls another's internal HTTP must start after it, so the URL is known when it starts. */
export function checkStartOrder(services: readonly EmbeddableService[]): void {
  services.forEach((service, index) => {
    for (const callee of service.callsInternalHttp ?? []) {
      const at = services.findIndex((s) => s.name === callee);
      if (at < 0 || at > index || !services[at]?.internalHttp) {
        throw new Error(`${service.name} calls ${callee}'s internal HTTP: list ${callee} (with internalHttp) before it in EMBEDDED_SERVICES`);
      }
    }
  });
}
