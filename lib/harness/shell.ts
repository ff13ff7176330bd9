import type { HarnessAdapter } from "./types";

/** Any command: the prompt is its last argument; ready once agent.pid names a live process. */
export const shell: HarnessAdapter = {
  name: "shell",
  defaultCommand: "sh -c 'printf \"%s\\n\" \"$1\"; exec sh' spex-shell",
  hookEvents: {},
  interruptKeys: ["C-c"],
  readiness: "pid",
  submitQuietMs: 0,
  launchArgs: () => [],
  resumeArgs: () => [],
  hookConfigFiles: [],
  renderHooks: async () => [],
  fatalScreens: [],
};
