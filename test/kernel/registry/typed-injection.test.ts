import { describe, expect, expectTypeOf, it } from 'vitest';
import { SignatureError, getService, inject, injectService, optional, service, serviceToken, type ServiceOf } from 'moonglass';
import { createTestRegistry } from '../../support/registry.js';

// Issue 14, item 7: injecting a signature declared in ServiceTypes is type-checked like
// getService. `npx tsc --noEmit -p .` type-checks this file: each @ts-expect-error line below
// must be an error, or the type check fails.

@service('forecast')
class Forecast {
  read(): string {
    return 'sunny';
  }
}

declare module 'moonglass' {
  interface ServiceTypes {
    'typed_test:service:forecast': Forecast;
  }
}

const FORECAST = serviceToken('typed_test:service:forecast');

@service('board')
class Board {
  constructor(
    @inject(FORECAST) readonly byToken: ServiceOf<typeof FORECAST>,
    @injectService('typed_test:service:forecast') readonly byDecorator: Forecast,
    @injectService('typed_test:service:forecast') @optional() readonly optionalOne?: Forecast,
  ) {}
}

class Dashboard {
  @injectService('typed_test:service:forecast') forecast!: Forecast;
}

describe('typed service tokens', () => {
  it('[issue 14.7] serviceToken is the signature itself, typed with its service, and both ways inject the service', () => {
    expect(FORECAST).toBe('typed_test:service:forecast');
    expectTypeOf<ServiceOf<typeof FORECAST>>().toEqualTypeOf<Forecast>();
    expectTypeOf<ServiceOf<'typed_test:service:forecast'>>().toEqualTypeOf<Forecast>();
    const lookUp = () => getService(FORECAST); // typed like the signature itself (not called: no host runs here)
    expectTypeOf<ReturnType<typeof lookUp>>().toEqualTypeOf<Forecast | undefined>();
    const { registry, scope } = createTestRegistry();
    const typedTest = scope('typed_test');
    registry.register(typedTest, Forecast);
    registry.register(typedTest, Board);
    const board = registry.get<Board>('typed_test:service:board')!;
    expect([board.byToken.read(), board.byDecorator.read(), board.optionalOne?.read()]).toEqual(['sunny', 'sunny', 'sunny']);
    expect(Dashboard).toBeTypeOf('function');
  });

  it('[issue 14.7] a signature missing from ServiceTypes, or a parameter the service does not fit, does not compile', () => {
    // @ts-expect-error -- a typo in the signature: not a key of ServiceTypes
    const typo = () => serviceToken('typed_test:service:forcast');
    const declareMisfit = () => {
      class Misfit {
        constructor(
          // @ts-expect-error -- a Forecast is not a number
          @injectService('typed_test:service:forecast') readonly forecast: number,
        ) {}
      }
      return Misfit;
    };
    const declareTypo = () => {
      class Typo {
        constructor(
          // @ts-expect-error -- a typo in the signature
          @injectService('typed_test:service:forcast') readonly forecast: Forecast,
        ) {}
      }
      return Typo;
    };
    const declareMisfitProperty = () => {
      class MisfitProperty {
        // @ts-expect-error -- a Forecast is not a string
        @injectService('typed_test:service:forecast') forecast!: string;
      }
      return MisfitProperty;
    };
    // At run time these are still well-formed signatures: only the compiler knows better.
    expect(typo()).toBe('typed_test:service:forcast');
    for (const declare of [declareMisfit, declareTypo, declareMisfitProperty]) expect(declare).not.toThrow();
  });

  it('[issue 14.7] a malformed signature throws SignatureError where the token is made', () => {
    expect(() => serviceToken('typed_test:forecast' as never)).toThrow(SignatureError);
  });
});
