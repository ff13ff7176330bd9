import { SpexCommand } from "./base";
import { writeJson } from "../lib/cli/output";
import { BUILD_COMMIT, BUILD_DATE, VERSION, versionLine } from "../lib/version";

export class VersionCommand extends SpexCommand {
  static paths = [["version"], ["--version"], ["-v"]];
  static usage = SpexCommand.Usage({
    category: "Machine",
    description: "print the version, and the commit and date this binary was built from",
    examples: [
      ["The version line to paste into a bug report", "spex --version"],
      ["As JSON: {version, commit, built}", "spex version --json"],
    ],
  });

  async execute(): Promise<number> {
    if (this.json) writeJson(this.context.stdout, { version: VERSION, commit: BUILD_COMMIT, built: BUILD_DATE });
    else this.context.stdout.write(`${versionLine()}\n`);
    return 0;
  }
}
