import { Injectable, Module, type OnModuleInit, type Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { defineHook, defineHookList, type Hook, Implements, InjectHook, OPEN_HOOKS } from './hooks';
import { HooksModule } from './hooks.module';

interface Greeter {
  readonly greeting: string;
  greet(name: string): string;
}
const Greeters = defineHook<Greeter>('Greeters');

interface Purger {
  readonly name: string;
}
const Purgers = defineHookList<Purger>('Purgers');

/** The lower module's side: it lists the hooks it uses and injects them. */
@Injectable()
class Front {
  constructor(
    @InjectHook(Greeters) readonly greeter: Greeter,
    @InjectHook(Purgers) readonly purgers: readonly Purger[],
  ) {}
}

@Module({ providers: [Greeters, Purgers, Front], exports: [Front] })
class LowerModule {}

@Implements(Greeters)
@Injectable()
class EnglishGreeter implements Greeter, OnModuleInit {
  readonly greeting = 'Hello';
  inits = 0;

  onModuleInit(): void {
    this.inits += 1;
  }

  greet(name: string): string {
    return `${this.greeting}, ${name}`;
  }
}

@Implements(Greeters)
@Injectable()
class FrenchGreeter implements Greeter {
  readonly greeting = 'Bonjour';

  greet(name: string): string {
    return `${this.greeting}, ${name}`;
  }
}

@Implements(Purgers)
@Injectable()
class RequestsPurger implements Purger {
  readonly name = 'requests';
}

@Implements(Purgers)
@Injectable()
class MailsPurger implements Purger {
  readonly name = 'mails';
}

/** A higher module: it imports the lower one and implements its hooks. */
function higher(...providers: Type[]): Type {
  @Module({ imports: [LowerModule], providers })
  class HigherModule {}
  return HigherModule;
}

async function boot(feature: Type, open: Hook<object>[] = []) {
  const ctx = await Test.createTestingModule({ imports: [HooksModule, feature] })
    .overrideProvider(OPEN_HOOKS)
    .useValue(open)
    .compile();
  await ctx.init();
  return ctx;
}

describe('hooks', () => {
  it('injects the one implementer of a hook: its methods bound to it, its properties read from it', async () => {
    const ctx = await boot(higher(EnglishGreeter, RequestsPurger));
    const { greeter } = ctx.get(Front);
    const { greet } = greeter;
    expect(greet('Ada')).toBe('Hello, Ada');
    expect(greeter.greeting).toBe('Hello');
    // Nest runs the implementer's own lifecycle hooks once, never again through the hook.
    expect(ctx.get(EnglishGreeter).inits).toBe(1);
    await ctx.close();
  });

  it('refuses to start when a hook a booted module uses has no implementer, naming it', async () => {
    await expect(boot(higher(RequestsPurger))).rejects.toThrow(
      'Hook Greeters has no implementer: a module uses it, but no booted provider is @Implements(Greeters).',
    );
  });

  it('refuses to start when a single hook has two implementers', async () => {
    await expect(boot(higher(EnglishGreeter, FrenchGreeter))).rejects.toThrow(
      'Hook Greeters has 2 implementers: EnglishGreeter, FrenchGreeter.',
    );
  });

  it('injects every implementer of a hook list, and an empty list without one', async () => {
    const all = await boot(higher(EnglishGreeter, RequestsPurger, MailsPurger));
    expect(all.get(Front).purgers.map((p) => p.name)).toEqual(['requests', 'mails']);
    await all.close();
    const none = await boot(higher(EnglishGreeter));
    expect(none.get(Front).purgers).toEqual([]);
    await none.close();
  });

  it('boots a module alone with the hooks it declares open, which throw when called', async () => {
    const ctx = await boot(LowerModule, [Greeters]);
    expect(() => ctx.get(Front).greeter.greet('Ada')).toThrow(
      'Hook Greeters is open: no module of this process implements it.',
    );
    await ctx.close();
  });

  it('refuses a hook declared open that is implemented, or that no booted module uses', async () => {
    await expect(boot(higher(EnglishGreeter), [Greeters])).rejects.toThrow(
      'Hook Greeters is declared open, but EnglishGreeter implements it.',
    );
    @Module({})
    class EmptyModule {}
    await expect(boot(EmptyModule, [Greeters])).rejects.toThrow(
      'Hook Greeters is declared open, but no module booted uses it.',
    );
  });

  it('refuses a second hook of the same name', () => {
    expect(() => defineHook<Greeter>('Greeters')).toThrow('Hook Greeters is defined twice');
  });
});
