/** Hooks attached to one route when it is added (`onRoute`), ahead of those the route declares itself. */
import type {
  onRequestHookHandler,
  onResponseHookHandler,
  preValidationHookHandler,
  RouteOptions,
} from 'fastify'

/** Puts `hook` first among the route's own `name` hooks. */
export function prependRouteHook(
  route: RouteOptions,
  name: 'onRequest',
  hook: onRequestHookHandler,
): void
export function prependRouteHook(
  route: RouteOptions,
  name: 'preValidation',
  hook: preValidationHookHandler,
): void
export function prependRouteHook(
  route: RouteOptions,
  name: 'onResponse',
  hook: onResponseHookHandler,
): void
export function prependRouteHook(
  route: RouteOptions,
  name: 'onRequest' | 'preValidation' | 'onResponse',
  hook: onRequestHookHandler | preValidationHookHandler | onResponseHookHandler,
): void {
  const declared: unknown = route[name] ?? []
  route[name] = [hook, ...(Array.isArray(declared) ? declared : [declared])] as never
}
