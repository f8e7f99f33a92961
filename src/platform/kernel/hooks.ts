import { type FactoryProvider, Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';

/**
 * Hooks (docs/architecture.md, Module graph): a lower module declares a typed hook, a higher
 * module's provider says `@Implements(hook)`, users `@InjectHook(hook)`. HookRegistry refuses to
 * start when a used single hook has no implementer or two; a hook list takes every implementer.
 */
export interface Hook<T extends object> extends FactoryProvider<T> {
  readonly provide: string;
  readonly name: string;
  readonly many: false;
}

interface HookList<T extends object> extends FactoryProvider<readonly T[]> {
  readonly provide: string;
  readonly name: string;
  readonly many: true;
}

type AnyHook = Hook<object> | HookList<object>;

/** The single hooks a module booted alone leaves without implementer (test/support/module.ts). */
export const OPEN_HOOKS = Symbol('open hooks');

const IMPLEMENTS = Symbol('implements hooks');
const names = new Set<string>();
const hooksOf = (type: object): string[] =>
  (Reflect.getMetadata(IMPLEMENTS, type) as string[] | undefined) ?? [];

function define(name: string, many: boolean) {
  if (names.has(name)) throw new Error(`Hook ${name} is defined twice`);
  names.add(name);
  const hook = {
    name,
    many,
    provide: `${name} (hook)`,
    inject: [HookRegistry],
    useFactory: (registry: HookRegistry) => registry.use(hook as AnyHook),
  };
  return hook;
}

/** A hook exactly one provider implements. */
export function defineHook<T extends object>(name: string): Hook<T> {
  return define(name, false) as Hook<T>;
}

/** A hook any number of providers implement, each in addition to the others. */
export function defineHookList<T extends object>(name: string): HookList<T> {
  return define(name, true) as HookList<T>;
}

/** Marks a provider as an implementer of `hook` (stack the decorator for several hooks). */
export function Implements<T extends object>(
  hook: Hook<T> | HookList<T>,
): <C extends abstract new (...args: never[]) => T>(target: C) => void {
  return (target) => Reflect.defineMetadata(IMPLEMENTS, [...hooksOf(target), hook.name], target);
}

/** Injects a hook: the implementer of a single hook, the list of a hook list's implementers. */
export const InjectHook = (hook: AnyHook): PropertyDecorator & ParameterDecorator =>
  Inject(hook.provide);

/** What Nest asks of every provider instance: never an implementer's, whose own runs already. */
const NOT_FORWARDED = new Set([
  'then',
  'onModuleInit',
  'onApplicationBootstrap',
  'onModuleDestroy',
  'beforeApplicationShutdown',
  'onApplicationShutdown',
]);

@Injectable()
export class HookRegistry implements OnModuleInit {
  private readonly handles = new Map<string, { hook: AnyHook; handle: object }>();
  private readonly single = new Map<string, object | null>();

  constructor(
    private readonly discovery: DiscoveryService,
    @Inject(OPEN_HOOKS) private readonly open: readonly Hook<object>[],
  ) {}

  /** The value a hook's provider injects, the same for every module listing the hook. */
  use(hook: AnyHook): object {
    const known = this.handles.get(hook.name);
    if (known) return known.handle;
    const handle = hook.many ? [] : this.forwarder(hook.name);
    this.handles.set(hook.name, { hook, handle });
    return handle;
  }

  /** Global modules initialise first: the hooks are found before any other module starts. */
  onModuleInit(): void {
    const found = this.implementers();
    for (const { hook, handle } of this.handles.values()) {
      const list = found.get(hook.name) ?? [];
      if (hook.many) (handle as object[]).push(...list);
      else this.single.set(hook.name, this.checked(hook.name, list));
    }
    for (const hook of this.open)
      if (!this.single.has(hook.name))
        throw new Error(`Hook ${hook.name} is declared open, but no module booted uses it.`);
  }

  private checked(name: string, list: object[]): object | null {
    const open = this.open.some((h) => h.name === name);
    const who = list.map((i) => i.constructor.name).join(', ');
    if (list.length > 1) throw new Error(`Hook ${name} has ${list.length} implementers: ${who}.`);
    if (list.length === 1 && open)
      throw new Error(`Hook ${name} is declared open, but ${who} implements it.`);
    if (list.length === 0 && !open)
      throw new Error(
        `Hook ${name} has no implementer: a module uses it, but no booted provider is @Implements(${name}).`,
      );
    return list[0] ?? null;
  }

  private implementers(): Map<string, object[]> {
    const found = new Map<string, object[]>();
    for (const { metatype, instance } of this.discovery.getProviders()) {
      if (!metatype || !instance) continue;
      for (const name of hooksOf(metatype)) {
        const list = found.get(name) ?? [];
        if (!list.includes(instance as object)) found.set(name, [...list, instance as object]);
      }
    }
    return found;
  }

  /** Stands for the one implementer, found at start-up: its properties, its methods bound to it. */
  private forwarder(name: string): object {
    return new Proxy(
      {},
      {
        get: (target, key) => {
          if (typeof key === 'symbol' || key in target || NOT_FORWARDED.has(key))
            return Reflect.get(target, key) as unknown;
          const impl = this.single.get(name);
          if (impl === undefined) throw new Error(`Hook ${name} is used before start-up.`);
          if (impl === null)
            throw new Error(`Hook ${name} is open: no module of this process implements it.`);
          const value = Reflect.get(impl, key) as unknown;
          return typeof value === 'function' ? (value as () => unknown).bind(impl) : value;
        },
      },
    );
  }
}
