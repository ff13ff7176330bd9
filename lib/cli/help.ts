// clipanion renders an option's value as `#0`; every usage line and help page
// goes through getUsageByIndex, so overriding it names the values for all
// commands at once (lib/cli/placeholders.ts).
import { type BaseContext, Cli } from "clipanion";
import { withPlaceholders } from "./placeholders";

export class SpexCli<Context extends BaseContext = BaseContext> extends Cli<Context> {
  protected override getUsageByIndex(n: number, opts?: { detailed?: boolean; inlineOptions?: boolean }) {
    const { usage, options } = super.getUsageByIndex(n, opts);
    return {
      usage: withPlaceholders(usage),
      options: options.map((o) => ({ ...o, definition: withPlaceholders(o.definition) })),
    };
  }
}
