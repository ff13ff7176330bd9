// node:http costs about 11 ms at startup in the compiled binary, and every
// command (hooks included) loads this folder through the command registry:
// load it only when a request is actually made or served.
export function loadHttp(): Promise<typeof import("node:http")> {
  return import("node:http");
}
