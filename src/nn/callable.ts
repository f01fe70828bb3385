// Layers callable without `new`: nn.Linear(784, 256), as PyTorch users write
// it and as the training loop does.
//
// The pattern: each layer is a class (LinearModule) wrapped in a Proxy whose
// apply trap constructs it, exported under the layer's name (Linear) together
// with a type alias of the same name. So one name serves every use:
//   nn.Linear(2, 3)  and  new nn.Linear(2, 3)   construct,
//   m instanceof nn.Linear                        works (the Proxy forwards
//                                                 `prototype` to the class),
//   class MyLinear extends nn.Linear { ... }     works (construct forwards
//                                                 new.target),
//   let m: nn.Linear                              is the instance type.
// A Proxy instead of a wrapper function keeps statics, name and prototype the
// class's own, with nothing to keep in sync.

/** A class constructor (abstract ones excluded: they cannot be called). */
type Ctor = new (...args: any[]) => any;

/** A class that can also be called without `new` (same arguments, same instance). */
export type CallableClass<C extends Ctor> = C & ((...args: ConstructorParameters<C>) => InstanceType<C>);

/** Wraps a class so that calling it constructs it (see the header). */
export function callableClass<C extends Ctor>(cls: C): CallableClass<C> {
  return new Proxy(cls, {
    apply: (target, _this, args: unknown[]) => new target(...args),
  }) as CallableClass<C>;
}
