// Path router over Route[]: exact paths by map lookup, `:param` patterns by segment match.
// It knows every method a path accepts, so a wrong method becomes 405 with an Allow header
// instead of 404. Conflicting registrations fail at startup, not at request time.
import type { ErrorFormat, HttpMethod, Route } from './types.js';

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: HttpMethod[] }
  | { kind: 'not_found' };

interface Pattern {
  /** Literal segments as strings, parameters as { name }. */
  segments: Array<string | { name: string }>;
  byMethod: Map<HttpMethod, Route>;
}

const NOT_FOUND: RouteMatch = { kind: 'not_found' };

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s; // malformed escapes stay as sent; the handler's own validation rejects them
  }
}

export class Router {
  private readonly exact = new Map<string, Map<HttpMethod, Route>>();
  private readonly patterns: Pattern[] = [];

  constructor(routes: readonly Route[]) {
    for (const r of routes) this.add(r);
  }

  private add(route: Route): void {
    if (!route.path.startsWith('/')) throw new Error(`route path must start with '/': ${route.path}`);
    const parts = route.path.split('/').slice(1);
    const hasParams = parts.some((p) => p.startsWith(':'));
    let byMethod: Map<HttpMethod, Route>;
    if (!hasParams) {
      byMethod = this.exact.get(route.path) ?? new Map();
      this.exact.set(route.path, byMethod);
    } else {
      const segments = parts.map((p) => (p.startsWith(':') ? { name: p.slice(1) } : p));
      const shape = segments.map((s) => (typeof s === 'string' ? s : ':')).join('/');
      let pattern = this.patterns.find((p) => p.segments.map((s) => (typeof s === 'string' ? s : ':')).join('/') === shape);
      if (!pattern) {
        pattern = { segments, byMethod: new Map() };
        this.patterns.push(pattern);
      }
      byMethod = pattern.byMethod;
    }
    if (byMethod.has(route.method)) throw new Error(`route registered twice: ${route.method} ${route.path}`);
    byMethod.set(route.method, route);
  }

  /** HEAD runs a path's GET route (the server sends the head without the body) unless the path
   *  has a HEAD route of its own; wherever GET is allowed, so is HEAD. */
  match(method: string, path: string): RouteMatch {
    const m = this.find(method, path);
    if (method === 'HEAD' && m.kind !== 'found') {
      const get = this.find('GET', path);
      if (get.kind === 'found') return get;
    }
    if (m.kind === 'method_not_allowed' && m.allow.includes('GET') && !m.allow.includes('HEAD')) return { kind: 'method_not_allowed', allow: [...m.allow, 'HEAD'] };
    return m;
  }

  /** The envelope for a request no route serves: that of the route whose path is the longest
   *  whole-segment prefix of it, so that a wrong method on /v1/messages, or /v1/messages/, answers
   *  the way /v1/messages does. Undefined: the server's default. */
  errorFormatFor(path: string): ErrorFormat | undefined {
    let format: ErrorFormat | undefined;
    let best = -1;
    for (const [p, byMethod] of this.exact) {
      if (p.length <= best || !(path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`))) continue;
      best = p.length;
      format = byMethod.values().next().value?.errorFormat;
    }
    return format;
  }

  private find(method: string, path: string): RouteMatch {
    const exact = this.exact.get(path);
    if (exact) {
      const route = exact.get(method as HttpMethod);
      if (route) return { kind: 'found', route, params: {} };
    }
    const allow = new Set<HttpMethod>(exact ? exact.keys() : []);
    if (this.patterns.length === 0) return allow.size ? { kind: 'method_not_allowed', allow: [...allow] } : NOT_FOUND;

    const parts = path.split('/').slice(1);
    for (const p of this.patterns) {
      if (p.segments.length !== parts.length) continue;
      let params: Record<string, string> | null = {};
      for (let i = 0; i < parts.length; i++) {
        const seg = p.segments[i]!;
        const part = parts[i]!;
        if (typeof seg === 'string') {
          if (seg !== part) {
            params = null;
            break;
          }
        } else {
          if (part === '') {
            params = null;
            break;
          }
          params[seg.name] = decodeSegment(part);
        }
      }
      if (!params) continue;
      const route = p.byMethod.get(method as HttpMethod);
      if (route) return { kind: 'found', route, params };
      for (const m of p.byMethod.keys()) allow.add(m);
    }
    return allow.size ? { kind: 'method_not_allowed', allow: [...allow] } : NOT_FOUND;
  }
}
