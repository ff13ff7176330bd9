// The machine name live rows and bulk entries carry: the short host name
// (the domain dropped, as `hostname -s` prints it), or SPEX_MACHINE when set.
import { hostname } from "node:os";

export function machineName(env: NodeJS.ProcessEnv = process.env): string {
  const given = env.SPEX_MACHINE?.trim();
  return given || hostname().split(".")[0] || hostname();
}
