import { SpexCommand } from "./base";
import { writeJson } from "../lib/cli/output";
import { BUILD_COMMIT, BUILD_DATE, BUILD_TARGET, VERSION, versionLine } from "../lib/version";

export class VersionCommand extends SpexCommand {
  static paths = [["version"], ["--version"], ["-v"]];
  static usage = SpexCommand.Usage({
    category: "Backend and checks",
    description: "print the version, the commit and date this binary was built from, and the platform it was built for",
    examples: [
      ["The version line to paste into a bug report", "spex --version"],
      ["As JSON: {version, commit, built, target}", "spex version --json"],
    ],
  });

  async execute(): Promise<number> {
    if (this.json) writeJson(this.context.stdout, { version: VERSION, commit: BUILD_COMMIT, built: BUILD_DATE, target: BUILD_TARGET });
    else this.context.stdout.write(`${versionLine()}\n`);
    return 0;
  }
}
