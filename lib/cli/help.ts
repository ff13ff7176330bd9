// clipanion renders an option's value as `#0` and any number of positionals
// as a bare `...`; every usage line and help page goes through
// getUsageByIndex, so overriding it names the values (lib/cli/placeholders.ts)
// and the repeated positional (`[SEL...]`, `<PATTERN>...`) for all commands at once.
import { type BaseContext, Cli, type CommandClass } from "clipanion";
import { withPlaceholders, withRestName } from "./placeholders";
import { shapeOf } from "./shape";

export class SpexCli<Context extends BaseContext = BaseContext> extends Cli<Context> {
  protected override getUsageByIndex(n: number, opts?: { detailed?: boolean; inlineOptions?: boolean }) {
    const { usage, options } = super.getUsageByIndex(n, opts);
    return {
      usage: withRestName(withPlaceholders(usage), this.restNameAt(n)),
      options: options.map((o) => ({ ...o, definition: withPlaceholders(o.definition) })),
    };
  }

  /** The name of the command's repeated positional, if it has one. */
  private restNameAt(n: number): string | undefined {
    const registrations = (this as unknown as { registrations: Map<CommandClass<any>, { index: number }> }).registrations;
    for (const [klass, { index }] of registrations) if (index === n) return shapeOf(klass).positionals.find((p) => p.rest)?.name;
    return undefined;
  }
}
