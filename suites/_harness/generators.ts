// fast-check tools shared by every family's arbitraries: preferring values that exercise a rule,
// and shrinking a tree arbitrary to its sub-trees.
import * as fc from 'fast-check';

// Reaching the interesting cases (coverage.ts: degenerate runs do not count).

/** Marks a context as Preferring's own, with whether its value was a wanted one. */
class PreferredContext {
  constructor(
    readonly inner: unknown,
    readonly wanted: boolean,
  ) {}
}

/**
 * Values of `arb`, preferring those for which `wanted` holds: up to `tries` draws, the first
 * wanted one, else the last draw (never an endless search, unlike `.filter`, when the data offers
 * no wanted value). A wanted value shrinks only to wanted values, so a counterexample stays one
 * that exercises the rule.
 */
export function preferring<T>(arb: fc.Arbitrary<T>, wanted: (value: T) => boolean, tries = 25): fc.Arbitrary<T> {
  return new Preferring(arb, wanted, tries);
}

class Preferring<T> extends fc.Arbitrary<T> {
  constructor(
    private readonly arb: fc.Arbitrary<T>,
    private readonly wanted: (value: T) => boolean,
    private readonly tries: number,
  ) {
    super();
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    let drawn = this.arb.generate(mrng, biasFactor);
    for (let i = 1; i < this.tries && !this.wanted(drawn.value); i++) drawn = this.arb.generate(mrng, biasFactor);
    return new fc.Value(drawn.value_, new PreferredContext(drawn.context, this.wanted(drawn.value)));
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.arb.canShrinkWithoutContext(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    const own = context instanceof PreferredContext ? context : new PreferredContext(context, false);
    return this.arb
      .shrink(value, own.inner)
      .filter((smaller) => !own.wanted || this.wanted(smaller.value))
      .map((smaller) => new fc.Value(smaller.value_, new PreferredContext(smaller.context, own.wanted)));
  }
}

// Shrinking a tree to its sub-trees.

/** Marks a context as the wrapped arbitrary's own, so that its shrinker can be used. */
class WrappedContext {
  constructor(readonly inner: unknown) {}
}

/**
 * A tree arbitrary with one more way to shrink: to the smaller trees `smaller` names (its
 * sub-expressions). fast-check's own shrinkers cannot drop `a and` from `a and b` (cross-shrinking
 * only tries a random leaf), so a counterexample would keep connectives it does not need. The
 * arbitrary's own shrinks (literals, operators, cross-shrink) come first while the context lasts;
 * then the smaller trees. Serves every family's filter trees.
 */
export function withSubtreeShrinks<T>(tree: fc.Arbitrary<T>, smaller: (value: T) => IterableIterator<T>): fc.Arbitrary<T> {
  return new SubtreeShrinking(tree, smaller);
}

class SubtreeShrinking<T> extends fc.Arbitrary<T> {
  constructor(
    private readonly tree: fc.Arbitrary<T>,
    private readonly smaller: (value: T) => IterableIterator<T>,
  ) {
    super();
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    return this.wrap(this.tree.generate(mrng, biasFactor));
  }

  canShrinkWithoutContext(_value: unknown): _value is T {
    return false; // only values this arbitrary produced are shrunk, with or without context
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    const own = context instanceof WrappedContext ? this.tree.shrink(value, context.inner).map((shrunk) => this.wrap(shrunk)) : fc.Stream.nil<fc.Value<T>>();
    return own.join(fc.stream(this.smaller(value)).map((smaller) => new fc.Value(smaller, undefined)));
  }

  private wrap(value: fc.Value<T>): fc.Value<T> {
    return new fc.Value(value.value_, new WrappedContext(value.context));
  }
}
