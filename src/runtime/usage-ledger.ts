/**
 * Usage roll-up across the agent tree: each agent's own usage, its subtree's total and the
 * session's total, priced when the host gave a price table.
 *
 * An agent's own usage lives in its machine context (replies, retries, background, compactions
 * are added there as they happen). The runtime copies it into the agent's account whenever it
 * changes, and the account passes the difference up to every ancestor, so a subtree total is
 * current at any moment (a cancelled subagent's spending stays counted) and costs O(depth) per
 * update, never a walk over the tree.
 */
import { subtractUsage, ZERO_USAGE, type Usage } from '../model/adapter.js';
import { costOf, type ModelPrice, type PriceTable } from '../model/prices.js';

/** Running sums of one scope (an agent, a subtree, the session). */
class Tally {
  usage: Usage = ZERO_USAGE;
  /** Sum of the priced members' costs. */
  cost = 0;
  /** Members that spent something at a model without a price: the cost is then unknown. */
  unpriced = 0;

  add(delta: Usage, cost: number, unpriced: number): void {
    const u = this.usage;
    this.usage = {
      inputTokens: u.inputTokens + delta.inputTokens,
      outputTokens: u.outputTokens + delta.outputTokens,
      cacheReadTokens: u.cacheReadTokens + delta.cacheReadTokens,
      cacheWriteTokens: u.cacheWriteTokens + delta.cacheWriteTokens,
      requests: u.requests + delta.requests,
      retries: u.retries + delta.retries,
    };
    this.cost += cost;
    this.unpriced += unpriced;
  }

  report(priced: boolean): Usage {
    return priced && this.unpriced === 0 ? { ...this.usage, cost: this.cost } : this.usage;
  }

  /** A tally with the same sums, to go on apart from this one. */
  copy(): Tally {
    const tally = new Tally();
    tally.usage = this.usage;
    tally.cost = this.cost;
    tally.unpriced = this.unpriced;
    return tally;
  }
}

/** One agent's account: its own usage and its subtree's. */
export class UsageAccount {
  private readonly ownTally = new Tally();
  /**
   * The subtree's sums, made when a subagent first spends: until then they are the agent's
   * own, so an agent that never delegates (most of a wide tree) keeps one tally, not two.
   */
  private subtreeTally: Tally | undefined;

  constructor(
    private readonly ledger: UsageLedger,
    private readonly parent: UsageAccount | undefined,
    private readonly price: ModelPrice | undefined,
  ) {}

  /** Sets the agent's own usage (a running total; it only grows). */
  set(own: Usage): void {
    const before = this.ownTally;
    if (before.usage === own) return;
    const costBefore = this.price ? costOf(before.usage, this.price) : 0;
    const costAfter = this.price ? costOf(own, this.price) : 0;
    // Spending nothing at an unpriced model leaves the cost known.
    const unknownBefore = !this.price && before.usage.requests > 0 ? 1 : 0;
    const unknownAfter = !this.price && own.requests > 0 ? 1 : 0;
    // Tallies sum tokens only (add ignores a cost); the cost is tallied apart.
    const delta = subtractUsage(own, before.usage);
    const cost = costAfter - costBefore;
    const unpriced = unknownAfter - unknownBefore;
    before.add(delta, cost, unpriced);
    // Keep the very object, so an unchanged context costs one comparison.
    before.usage = own;
    this.subtreeTally?.add(delta, cost, unpriced);
    for (let account = this.parent; account; account = account.parent) account.subtreeSums().add(delta, cost, unpriced);
    this.ledger.session.add(delta, cost, unpriced);
  }

  /** The agent's own usage, with its cost when priced. */
  get own(): Usage {
    return this.ownTally.report(this.ledger.priced);
  }

  /** The agent's and all its subagents' usage, with the cost when every part is priced. */
  get subtree(): Usage {
    return (this.subtreeTally ?? this.ownTally).report(this.ledger.priced);
  }

  /** The subtree's own tally, split from the agent's when a subagent first adds to it. */
  private subtreeSums(): Tally {
    return (this.subtreeTally ??= this.ownTally.copy());
  }
}

/** The session's usage accounts. */
export class UsageLedger {
  /** The session's total. */
  readonly session = new Tally();
  readonly priced: boolean;

  constructor(private readonly prices: PriceTable | undefined) {
    this.priced = prices !== undefined;
  }

  /** Opens the account of an agent that runs `model`, under its parent's account. */
  open(parent: UsageAccount | undefined, model: string): UsageAccount {
    const price = this.prices && Object.hasOwn(this.prices, model) ? this.prices[model] : undefined;
    return new UsageAccount(this, parent, price);
  }

  /** The session's total, with the cost when every part is priced. */
  total(): Usage {
    return this.session.report(this.priced);
  }
}
